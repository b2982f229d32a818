// The jira issue tools against the loopback Jira: JQL and paging (Cloud's tokens, Server's startAt), one issue with
// its comments and relations, comments in ADF, status changes through workflow transitions, and link directions.
import { afterEach, describe, expect, it } from 'vitest';
import { markdownToAdf } from '../src/plugins/jira/adf.js';
import { type RecordedRequest, jira } from './support/fake-jira.js';
import { type JiraRig, authHeader, startJiraRig, structured, text } from './support/fake-jira-harness.js';
import { OPS, PROJ } from './support/fake-jira-metadata.js';

let rig: JiraRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const issues = (count: number, from = 1) =>
  Array.from({ length: count }, (_, i) => jira.issue('cloud', `PROJ-${from + i}`));

describe('get_issues', () => {
  it('turns the filters into JQL after the agent query, and reads Cloud pages by token', async () => {
    rig = await startJiraRig();
    const all = issues(150);
    rig.fake.route('GET', '/rest/api/3/search/jql', (request: RecordedRequest) => {
      const start = Number(request.query.nextPageToken ?? 0);
      const size = Number(request.query.maxResults);
      const next = start + size < all.length ? String(start + size) : undefined;
      return {
        status: 200,
        body: {
          issues: all.slice(start, start + size),
          ...(next ? { nextPageToken: next } : {}),
          isLast: next === undefined,
        },
      };
    });
    const result = await rig.call('get_issues', {
      query: 'fixVersion = "1.0" ORDER BY rank',
      labels: ['ui', 'crash'],
      statuses: ['In Progress'],
      created_after: '2024-01-01',
      assignee: 'acc-1',
      priority: 'high',
      offset: 120,
      limit: 20,
    });
    expect(result.isError, text(result)).toBeFalsy();
    const sent = rig.sent('GET', '/rest/api/3/search/jql');
    expect(sent[0]?.query.jql).toBe(
      '(fixVersion = "1.0") AND project = "PROJ" AND labels = "ui" AND labels = "crash" AND assignee = "acc-1" AND priority = "High" AND status in ("In Progress") AND created >= "2024-01-01" ORDER BY rank',
    );
    expect(sent.map((r) => r.query.nextPageToken)).toEqual([undefined, '100']);
    expect(sent[0]?.query.fields).toContain('summary');
    const data = structured(result) as { items: { key: string }[]; page: { total?: number } };
    expect(data.items.map((i) => i.key)).toEqual(all.slice(120, 140).map((i) => i.key));
    expect(data.page.total).toBe(150);
  });

  it('defaults to open issues of every configured project, newest first', async () => {
    rig = await startJiraRig({ projects: [PROJ, OPS] });
    rig.fake.route('GET', '/rest/api/3/search/jql', {
      status: 200,
      body: { issues: issues(2), isLast: true },
    });
    await rig.call('get_issues', { search: 'say "hi"' });
    expect(rig.sent('GET', '/rest/api/3/search/jql')[0]?.query.jql).toBe(
      'project in ("PROJ", "OPS") AND statusCategory != Done AND text ~ "say \\"hi\\"" ORDER BY created DESC',
    );
    await rig.call('get_issues', { projectId: 'OPS', state: 'closed', sort: 'updated', order: 'asc' });
    expect(rig.sent('GET', '/rest/api/3/search/jql')[1]?.query.jql).toBe(
      'project = "OPS" AND statusCategory = Done ORDER BY updated ASC',
    );
  });

  it('pages Server / Data Center search by startAt and reads its total', async () => {
    rig = await startJiraRig({ flavor: 'server' });
    rig.fake.route('GET', '/rest/api/2/search', (request: RecordedRequest) => {
      const startAt = Number(request.query.startAt);
      const all = Array.from({ length: 45 }, (_, i) => jira.issue('server', `PROJ-${i + 1}`));
      return {
        status: 200,
        body: {
          expand: 'names,schema',
          startAt,
          maxResults: Number(request.query.maxResults),
          total: 45,
          issues: all.slice(startAt, startAt + Number(request.query.maxResults)),
        },
      };
    });
    const result = await rig.call('get_issues', { offset: 20, limit: 20 });
    expect(rig.sent('GET', '/rest/api/2/search').map((r) => r.query.startAt)).toEqual(['20']);
    const data = structured(result) as {
      items: { key: string; author?: string }[];
      page: { total?: number };
    };
    expect(data.items[0]).toMatchObject({ key: 'PROJ-21', author: 'Mia Krystof' });
    expect(data.page.total).toBe(45);
  });
});

describe('get_issue and comments', () => {
  it('returns the description and comments as Markdown, custom fields by name, and relations from this side', async () => {
    rig = await startJiraRig();
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7', {
      status: 200,
      body: jira.issue('cloud', 'PROJ-7', {
        description: jira.adf('The save button crashes.'),
        customfield_10100: { self: '', value: 'High', id: '2' },
        customfield_10111: { value: 'Europe', id: '21', child: { value: 'France', id: '23' } },
        comment: {
          comments: [jira.comment('cloud', '100', 'Looks bad')],
          maxResults: 1,
          total: 1,
          startAt: 0,
        },
        fixVersions: [jira.version('32', '2.0')],
        parent: {
          id: '10001',
          key: 'PROJ-1',
          fields: { summary: 'Epic', status: jira.status('To Do', 'new') },
        },
        subtasks: [
          { id: '10009', key: 'PROJ-9', fields: { summary: 'Part', status: jira.status('Done', 'done') } },
        ],
        issuelinks: [
          {
            id: '1',
            type: jira.linkType('10000', 'Blocks', 'is blocked by', 'blocks'),
            outwardIssue: { key: 'PROJ-2', fields: { summary: 'Two' } },
          },
          {
            id: '2',
            type: jira.linkType('10000', 'Blocks', 'is blocked by', 'blocks'),
            inwardIssue: { key: 'PROJ-3', fields: { summary: 'Three' } },
          },
        ],
      }),
    });
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7/comment', {
      status: 200,
      body: { startAt: 0, maxResults: 20, total: 1, comments: [jira.comment('cloud', '999', 'Not this')] },
    });
    const result = await rig.call('get_issue', {
      key: 'proj-7',
      include_comments: true,
      include_relations: true,
    });
    expect(result.isError, text(result)).toBeFalsy();
    const data = structured(result) as { item: Record<string, unknown>; comments: Record<string, unknown>[] };
    expect(data.item).toMatchObject({
      key: 'PROJ-7',
      state: 'To Do',
      body: 'The save button crashes.',
      commentCount: 1,
      milestone: '2.0',
      parent: 'PROJ-1',
      customFields: { Severity: 'High', Region: 'Europe > France' },
    });
    expect(
      (data.item.links as { key: string; relation: string }[]).map((l) => `${l.relation} ${l.key}`),
    ).toEqual(['parent PROJ-1', 'sub-task PROJ-9', 'blocks PROJ-2', 'is blocked by PROJ-3']);
    expect(data.comments[0]).toMatchObject({ id: '100', author: 'Mia Krystof', body: 'Looks bad' });
    const fields = rig.sent('GET', '/rest/api/3/issue/PROJ-7')[0]?.query.fields ?? '';
    expect(fields.split(',')).toEqual(
      expect.arrayContaining(['description', 'comment', 'issuelinks', 'subtasks', 'customfield_10100']),
    );
    // The comments come with the issue: no second request for them.
    expect(rig.sent('GET', '/rest/api/3/issue/PROJ-7/comment')).toHaveLength(0);
  });

  it('without include_comments, counts the comments from an empty comment page instead of their bodies', async () => {
    rig = await startJiraRig();
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7', { status: 200, body: jira.issue('cloud', 'PROJ-7') });
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7/comment', {
      status: 200,
      body: { startAt: 0, maxResults: 0, total: 12, comments: [] },
    });
    const result = await rig.call('get_issue', { key: 'PROJ-7' });
    const data = structured(result) as { item: Record<string, unknown>; comments?: unknown };
    expect(data.item.commentCount).toBe(12);
    expect(data.comments).toBeUndefined();
    expect(rig.sent('GET', '/rest/api/3/issue/PROJ-7')[0]?.query.fields?.split(',')).not.toContain('comment');
    expect(rig.sent('GET', '/rest/api/3/issue/PROJ-7/comment').map((r) => r.query)).toEqual([
      { startAt: '0', maxResults: '0' },
    ]);
  });

  it('reads the comments on their own when Jira cuts the embedded page short', async () => {
    rig = await startJiraRig();
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7', {
      status: 200,
      body: jira.issue('cloud', 'PROJ-7', {
        comment: { comments: [], maxResults: 0, total: 2, startAt: 0 },
      }),
    });
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7/comment', {
      status: 200,
      body: {
        startAt: 0,
        maxResults: 20,
        total: 2,
        comments: [jira.comment('cloud', '1', 'One'), jira.comment('cloud', '2', 'Two')],
      },
    });
    const data = structured(await rig.call('get_issue', { key: 'PROJ-7', include_comments: true })) as {
      item: Record<string, unknown>;
      comments: { body: string }[];
    };
    expect(data.item.commentCount).toBe(2);
    expect(data.comments.map((c) => c.body)).toEqual(['One', 'Two']);
    expect(rig.sent('GET', '/rest/api/3/issue/PROJ-7/comment').map((r) => r.query)).toEqual([
      { startAt: '0', maxResults: '20', orderBy: 'created' },
    ]);
  });

  it('adds a comment as an ADF document on Cloud', async () => {
    rig = await startJiraRig();
    rig.fake.route('POST', '/rest/api/3/issue/PROJ-7/comment', {
      status: 201,
      body: jira.comment('cloud', '101', 'Fixed'),
    });
    const result = await rig.call('add_issue_comment', { key: 'PROJ-7', body: 'Fixed in **2.0**' });
    expect(text(result)).toMatch(/^Commented on PROJ-7\n.*\/browse\/PROJ-7\?focusedCommentId=101$/);
    expect(rig.sent('POST', '/rest/api/3/issue/PROJ-7/comment')[0]?.body).toEqual({
      body: markdownToAdf('Fixed in **2.0**'),
    });
  });

  it('reads and writes comments as wiki markup on Server / Data Center', async () => {
    rig = await startJiraRig({ flavor: 'server' });
    rig.fake.route('GET', '/rest/api/2/issue/PROJ-7/comment', {
      status: 200,
      body: {
        startAt: 0,
        maxResults: 20,
        total: 1,
        comments: [jira.comment('server', '100', 'h3. Cause\n*null* in {{save()}}')],
      },
    });
    rig.fake.route('POST', '/rest/api/2/issue/PROJ-7/comment', {
      status: 201,
      body: jira.comment('server', '101', 'x'),
    });
    const read = structured(await rig.call('get_issue_comments', { key: 7 })) as {
      items: { body: string }[];
    };
    expect(read.items[0]?.body).toBe('### Cause\n**null** in `save()`');
    await rig.call('add_issue_comment', {
      key: 'PROJ-7',
      body: 'Fixed in **2.0**, see [notes](https://x.example)',
    });
    expect(rig.sent('POST', '/rest/api/2/issue/PROJ-7/comment')[0]?.body).toEqual({
      body: 'Fixed in *2.0*, see [notes|https://x.example]',
    });
  });

  it('refuses a key that is not a Jira key before any request', async () => {
    rig = await startJiraRig({ projects: [PROJ, OPS] });
    const before = rig.fake.requests.length;
    const result = await rig.call('get_issue', { key: '12' });
    expect(text(result)).toContain('parameter "key" is "12", which is not a Jira issue key; use "PROJ-7"');
    expect(rig.fake.requests.length).toBe(before);
  });
});

describe('update_issue', () => {
  const transitions = {
    expand: 'transitions',
    transitions: [
      jira.transition('11', 'Start work', jira.status('In Progress', 'indeterminate', 3)),
      jira.transition('31', 'Close', jira.status('Done', 'done', 10001)),
    ],
  };
  const routes = (r: JiraRig, flavor: 'cloud' | 'server' = 'cloud') => {
    const api = flavor === 'cloud' ? '/rest/api/3' : '/rest/api/2';
    r.fake.route('GET', `${api}/issue/PROJ-7/transitions`, { status: 200, body: transitions });
    r.fake.route('POST', `${api}/issue/PROJ-7/transitions`, { status: 204 });
    r.fake.route('PUT', `${api}/issue/PROJ-7`, { status: 204 });
    r.fake.route('GET', `${api}/issue/PROJ-7`, { status: 200, body: jira.issue(flavor, 'PROJ-7') });
  };

  it('changes fields, then moves the status through the matching transition', async () => {
    rig = await startJiraRig();
    routes(rig);
    const result = await rig.call('update_issue', {
      key: 'PROJ-7',
      title: 'Renamed',
      status: 'In Progress',
      milestone: '',
      cf_budget: 3,
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(rig.sent('PUT', '/rest/api/3/issue/PROJ-7')[0]?.body).toEqual({
      fields: { summary: 'Renamed', fixVersions: [], customfield_10104: 3 },
    });
    expect(rig.sent('POST', '/rest/api/3/issue/PROJ-7/transitions')[0]?.body).toEqual({
      transition: { id: '11' },
    });
  });

  it('moves the status through the matching transition on Server / Data Center (REST v2)', async () => {
    rig = await startJiraRig({ flavor: 'server' });
    routes(rig, 'server');
    const result = await rig.call('update_issue', { key: 'PROJ-7', title: 'Renamed', status: 'Done' });
    expect(result.isError, text(result)).toBeFalsy();
    expect(rig.sent('GET', '/rest/api/2/issue/PROJ-7/transitions')).toHaveLength(1);
    expect(rig.sent('PUT', '/rest/api/2/issue/PROJ-7')[0]?.body).toEqual({ fields: { summary: 'Renamed' } });
    expect(rig.sent('POST', '/rest/api/2/issue/PROJ-7/transitions')[0]?.body).toEqual({
      transition: { id: '31' },
    });
    expect(rig.sent('POST', '/rest/api/2/issue/PROJ-7/transitions')[0]?.headers.authorization).toBe(
      authHeader('server'),
    );
  });

  it('closes by a transition into a done status', async () => {
    rig = await startJiraRig();
    routes(rig);
    await rig.call('update_issue', { key: 'PROJ-7', state: 'closed' });
    expect(rig.sent('POST', '/rest/api/3/issue/PROJ-7/transitions')[0]?.body).toEqual({
      transition: { id: '31' },
    });
    expect(rig.sent('PUT', '/rest/api/3/issue/PROJ-7')).toHaveLength(0);
  });

  it('says which statuses are reachable when none matches, and changes nothing', async () => {
    rig = await startJiraRig();
    routes(rig);
    const result = await rig.call('update_issue', { key: 'PROJ-7', title: 'x', status: 'To Do' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(
      'status: issue PROJ-7 cannot move to "To Do" now; reachable statuses: In Progress (transition "Start work"), Done (transition "Close")',
    );
    expect(rig.sent('PUT', '/rest/api/3/issue/PROJ-7')).toHaveLength(0);
  });
});

describe('link_issues', () => {
  it.each([
    ['blocks', { outwardIssue: { key: 'PROJ-1' }, inwardIssue: { key: 'PROJ-2' } }, 'Blocks'],
    ['is blocked by', { outwardIssue: { key: 'PROJ-2' }, inwardIssue: { key: 'PROJ-1' } }, 'Blocks'],
    ['duplicates', { outwardIssue: { key: 'PROJ-1' }, inwardIssue: { key: 'PROJ-2' } }, 'Duplicate'],
  ])('"%s" points the link the way the words say', async (linkType, ends, type) => {
    rig = await startJiraRig();
    rig.fake.route('POST', '/rest/api/3/issueLink', { status: 201 });
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-1', { status: 200, body: jira.issue('cloud', 'PROJ-1') });
    const result = await rig.call('link_issues', {
      key: 'PROJ-1',
      target_key: 'PROJ-2',
      link_type: linkType,
    });
    expect(text(result)).toMatch(new RegExp(`^Linked PROJ-1 ${linkType.toLowerCase()} PROJ-2`));
    expect(rig.sent('POST', '/rest/api/3/issueLink')[0]?.body).toEqual({ type: { name: type }, ...ends });
  });

  it('holds the agent to the words it was shown: another case or the type name is refused', async () => {
    rig = await startJiraRig();
    for (const linkType of ['Is Blocked By', 'Blocks']) {
      const result = await rig.call('link_issues', {
        key: 'PROJ-1',
        target_key: 'PROJ-2',
        link_type: linkType,
      });
      expect(text(result)).toContain(`parameter "link_type" is "${linkType}"; allowed: `);
    }
    expect(rig.sent('POST', '/rest/api/3/issueLink')).toHaveLength(0);
  });
});
