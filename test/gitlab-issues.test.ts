// The gitlab plugin's issue tools, through the host and a real MCP client, against the fake GitLab.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gl } from './support/fake-gitlab-bodies.js';
import {
  type GitLabRig,
  PROJECT_PATH,
  startGitLabRig,
  structured,
  text,
} from './support/fake-gitlab-harness.js';

let rig: GitLabRig;
beforeEach(async () => {
  rig = await startGitLabRig({
    metadata: { labels: ['bug', 'feature'], milestones: [{ id: 11, title: 'v1.0' }] },
  });
});
afterEach(async () => rig.close());

const issues = (count: number) => Array.from({ length: count }, (_, i) => gl.issue(count - i));

describe('gitlab get_issues', () => {
  it("maps the unified filters to GitLab's query and the issues to the shared shape", async () => {
    rig.list('GET', '/projects/:project/issues', [
      gl.issue(12, {
        title: 'Login fails',
        description: 'Steps…',
        labels: ['bug'],
        assignees: ['lennie'],
        author: 'eileen.lowe',
        milestone: { id: 11, title: 'v1.0' },
        user_notes_count: 3,
      }),
    ]);
    const result = await rig.call('get_issues', {
      state: 'closed',
      labels: ['bug'],
      assignee: 'lennie',
      author: 'eileen.lowe',
      search: 'login',
      sort: 'updated',
      order: 'asc',
    });
    expect(result.isError).toBeFalsy();
    const [sent] = rig.fake.sent('GET', `${PROJECT_PATH}/issues`);
    expect(sent?.path).toBe('/api/v4/projects/group%2Fsub%2Fproject/issues');
    expect(sent?.query).toEqual({
      state: 'closed',
      order_by: 'updated_at',
      sort: 'asc',
      labels: 'bug',
      search: 'login',
      'assignee_username[]': 'lennie',
      author_username: 'eileen.lowe',
      per_page: '20',
      page: '1',
    });
    expect(structured(result)).toEqual({
      kind: 'issue_list',
      items: [
        {
          key: '#12',
          title: 'Login fails',
          state: 'open',
          url: 'https://gitlab.example.com/group/sub/project/-/issues/12',
          author: 'eileen.lowe',
          assignees: ['lennie'],
          labels: ['bug'],
          milestone: 'v1.0',
          createdAt: '2024-01-04T15:31:46.176Z',
          updatedAt: '2024-01-04T15:31:46.176Z',
          commentCount: 3,
          body: 'Steps…',
        },
      ],
      page: { offset: 0, limit: 20, total: 1 },
    });
    expect(text(result)).toContain('#12');
  });

  it.each(['markdown', 'compact', 'json', 'toon'])('renders the issues in the %s format', async (format) => {
    rig.list('GET', '/projects/:project/issues', [gl.issue(12, { title: 'Login fails', labels: ['bug'] })]);
    const result = await rig.call('get_issues', { format });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('Login fails');
    expect(text(result)).toContain('#12');
    expect(rig.fake.sent('GET', `${PROJECT_PATH}/issues`)[0]?.query).not.toHaveProperty('format');
  });

  it('asks for opened issues by default and maps "all"', async () => {
    rig.list('GET', '/projects/:project/issues', []);
    await rig.call('get_issues', {});
    await rig.call('get_issues', { state: 'all' });
    const sent = rig.fake.sent('GET', `${PROJECT_PATH}/issues`);
    expect(sent.map((r) => r.query.state)).toEqual(['opened', 'all']);
    expect(sent[0]?.query).toMatchObject({ order_by: 'created_at', sort: 'desc' });
  });

  it('reads a window that spans two pages and reports the total from X-Total', async () => {
    rig.list('GET', '/projects/:project/issues', issues(150));
    const result = await rig.call('get_issues', { offset: 90, limit: 20 });
    const data = structured(result) as { items: { key: string }[]; page: unknown };
    expect(data.items.map((i) => i.key)).toEqual(Array.from({ length: 20 }, (_, i) => `#${60 - i}`));
    expect(data.page).toEqual({ offset: 90, limit: 20, total: 150 });
    expect(
      rig.fake.sent('GET', `${PROJECT_PATH}/issues`).map((r) => [r.query.page, r.query.per_page]),
    ).toEqual([
      ['5', '20'],
      ['6', '20'],
    ]);
    expect(text(result)).toContain('offset=110');
  });
});

describe('gitlab get_issue and get_issue_comments', () => {
  const notes = [
    gl.note(1, { body: 'First!', author: 'eileen.lowe' }),
    gl.note(2, { body: 'changed the description', system: true }),
    gl.note(3, { body: 'Second', created_at: '2024-02-01T00:00:00Z', updated_at: '2024-02-02T00:00:00Z' }),
  ];

  it('reads one issue with its comments, leaving out system notes', async () => {
    rig.fake.route('GET', '/projects/:project/issues/:iid', (_r, p) => ({
      status: 200,
      body: gl.issue(Number(p.iid), { title: 'Crash' }),
    }));
    rig.list('GET', '/projects/:project/issues/:iid/notes', notes);
    const result = await rig.call('get_issue', { key: '#7', include_comments: true });
    const data = structured(result) as { kind: string; item: { key: string }; comments: { id: string }[] };
    expect(data.kind).toBe('issue');
    expect(data.item).toMatchObject({ key: '#7', title: 'Crash', state: 'open' });
    expect(data.comments).toEqual([
      {
        id: '1',
        body: 'First!',
        author: 'eileen.lowe',
        createdAt: '2024-01-04T15:31:46.176Z',
        url: 'https://gitlab.example.com/group/sub/project/-/issues/7#note_1',
      },
      {
        id: '3',
        body: 'Second',
        author: 'root',
        createdAt: '2024-02-01T00:00:00Z',
        updatedAt: '2024-02-02T00:00:00Z',
        url: 'https://gitlab.example.com/group/sub/project/-/issues/7#note_3',
      },
    ]);
    expect(rig.fake.sent('GET', `${PROJECT_PATH}/issues/7/notes`)[0]?.query).toMatchObject({
      sort: 'asc',
      order_by: 'created_at',
    });
  });

  it('accepts the issue URL as key and shows linked issues', async () => {
    rig.fake.route('GET', '/projects/:project/issues/:iid', (_r, p) => ({
      status: 200,
      body: gl.issue(Number(p.iid)),
    }));
    rig.fake.route('GET', '/projects/:project/issues/:iid/links', {
      status: 200,
      body: [
        gl.linkedIssue(4, 'blocks', { title: 'Deploy' }),
        gl.linkedIssue(9, 'relates_to', { title: 'Other', project: 'group/other' }),
      ],
    });
    const result = await rig.call('get_issue', {
      key: 'https://gitlab.example.com/group/sub/project/-/issues/7',
      include_relations: true,
    });
    expect(structured(result)).toMatchObject({
      item: {
        key: '#7',
        links: [
          { key: '#4', relation: 'blocks', title: 'Deploy' },
          { key: 'group/other#9', relation: 'relates_to', title: 'Other' },
        ],
      },
    });
  });

  it('pages comments and counts only what people wrote', async () => {
    const many = Array.from({ length: 130 }, (_, i) => gl.note(i + 1, { system: i % 2 === 1 }));
    rig.list('GET', '/projects/:project/issues/:iid/notes', many);
    const result = await rig.call('get_issue_comments', { key: 7, offset: 50, limit: 10 });
    const data = structured(result) as { items: { id: string }[]; page: unknown };
    expect(data.items.map((c) => c.id)).toEqual([
      '101',
      '103',
      '105',
      '107',
      '109',
      '111',
      '113',
      '115',
      '117',
      '119',
    ]);
    // Both pages were read, so the count of comments (65 of 130 notes) is known.
    expect(data.page).toEqual({ offset: 50, limit: 10, total: 65 });
    expect(rig.fake.sent('GET', `${PROJECT_PATH}/issues/7/notes`).map((r) => r.query.page)).toEqual([
      '1',
      '2',
    ]);
  });
});

describe('gitlab create_issue, update_issue, add_issue_comment', () => {
  beforeEach(async () => {
    rig.fake.route('GET', '/users', (request) => ({
      status: 200,
      body: request.query.username === 'ghost' ? [] : [gl.user(request.query.username ?? '', 42)],
    }));
    await rig.metadataLoaded();
  });

  it('creates an issue with user ids and the milestone id GitLab takes', async () => {
    rig.fake.route('POST', '/projects/:project/issues', (request) => ({
      status: 201,
      body: gl.issue(14, { title: (request.body as { title: string }).title, labels: ['bug'] }),
    }));
    const result = await rig.call('create_issue', {
      title: 'Issues with auth',
      body: 'It breaks',
      labels: ['bug', 'feature'],
      assignees: ['lennie'],
      milestone: 'v1.0',
    });
    expect(result.isError).toBeFalsy();
    expect(rig.fake.sent('POST', `${PROJECT_PATH}/issues`)[0]?.body).toEqual({
      title: 'Issues with auth',
      description: 'It breaks',
      labels: 'bug,feature',
      assignee_ids: [42],
      milestone_id: 11,
    });
    expect(rig.fake.sent('GET', '/users')[0]?.query).toMatchObject({ username: 'lennie' });
    expect(text(result)).toBe(
      'Created #14: Issues with auth\nhttps://gitlab.example.com/group/sub/project/-/issues/14',
    );
    expect(structured(result)).toMatchObject({ kind: 'issue', item: { key: '#14', labels: ['bug'] } });
  });

  it('names an unknown user and an unknown milestone without calling GitLab to create', async () => {
    const user = await rig.call('create_issue', { title: 'x', assignees: ['ghost'] });
    expect(user.isError).toBe(true);
    expect(text(user)).toContain('no user "ghost"');
    rig.fake.route('POST', '/projects/:project/issues', { status: 201, body: gl.issue(1) });
    const milestone = await rig.call('create_issue', { title: 'x', milestone: 'v9' });
    expect(milestone.isError).toBe(true);
    expect(text(milestone)).toMatch(/"v9"/);
    expect(rig.fake.sent('POST', `${PROJECT_PATH}/issues`)).toHaveLength(0);
  });

  it('closes, reopens and clears fields with the state events and empty values GitLab expects', async () => {
    rig.fake.route('PUT', '/projects/:project/issues/:iid', (request, p) => ({
      status: 200,
      body: gl.issue(Number(p.iid), {
        state: (request.body as { state_event?: string }).state_event === 'close' ? 'closed' : 'opened',
      }),
    }));
    const closed = await rig.call('update_issue', { key: '#15', state: 'closed', milestone: '', labels: [] });
    expect(text(closed)).toMatch(/^Updated #15/);
    expect(structured(closed)).toMatchObject({ item: { state: 'closed' } });
    await rig.call('update_issue', { key: '15', state: 'open', title: 'Renamed', assignees: [] });
    expect(rig.fake.sent('PUT', `${PROJECT_PATH}/issues/15`).map((r) => r.body)).toEqual([
      { state_event: 'close', milestone_id: 0, labels: '' },
      { state_event: 'reopen', title: 'Renamed', assignee_ids: [] },
    ]);
    const nothing = await rig.call('update_issue', { key: '#15' });
    expect(nothing.isError).toBe(true);
    expect(text(nothing)).toContain('nothing to change');
  });

  it('comments on an issue', async () => {
    rig.fake.route('POST', '/projects/:project/issues/:iid/notes', (request) => ({
      status: 201,
      body: gl.note(301, { body: (request.body as { body: string }).body }),
    }));
    const result = await rig.call('add_issue_comment', { key: '#3', body: 'Looks good' });
    expect(rig.fake.sent('POST', `${PROJECT_PATH}/issues/3/notes`)[0]?.body).toEqual({ body: 'Looks good' });
    expect(text(result)).toBe(
      'Commented on #3\nhttps://gitlab.example.com/group/sub/project/-/issues/3#note_301',
    );
    expect(structured(result)).toMatchObject({
      kind: 'comment_list',
      items: [{ id: '301', body: 'Looks good' }],
    });
  });
});

describe('gitlab link_issues', () => {
  beforeEach(() => {
    rig.fake.route('POST', '/projects/:project/issues/:iid/links', (request, p) => {
      const body = request.body as { target_issue_iid: number | string; link_type: string };
      return {
        status: 201,
        body: {
          source_issue: gl.issue(Number(p.iid), { title: 'Source' }),
          target_issue: gl.issue(Number(body.target_issue_iid), { title: 'Target' }),
          link_type: body.link_type,
        },
      };
    });
  });

  it.each(['relates_to', 'blocks', 'is_blocked_by'])('links with link_type %s', async (linkType) => {
    const result = await rig.call('link_issues', { key: '#1', target_key: '#2', link_type: linkType });
    expect(result.isError).toBeFalsy();
    expect(rig.fake.sent('POST', `${PROJECT_PATH}/issues/1/links`)[0]?.body).toEqual({
      target_project_id: 'group/sub/project',
      target_issue_iid: 2,
      link_type: linkType,
    });
    expect(text(result)).toMatch(new RegExp(`^Linked #1 ${linkType.replaceAll('_', ' ')} #2: Target`));
    expect(structured(result)).toMatchObject({ kind: 'issue', item: { key: '#1', title: 'Source' } });
  });

  it('links to another project, defaults to relates_to, and takes the link types it lists', async () => {
    await rig.call('link_issues', { key: '#1', target_key: 'group/other#9' });
    await rig.call('link_issues', { key: '#1', target_key: '#2', link_type: 'is_blocked_by' });
    // The agent is held to the link types it was shown: words outside them are refused before the enricher runs.
    const worded = await rig.call('link_issues', { key: '#1', target_key: '#3', link_type: 'Blocked by' });
    expect(text(worded)).toMatch(/parameter "link_type" is "Blocked by"; allowed: "relates_to", "blocks"/);
    expect(rig.fake.sent('POST', `${PROJECT_PATH}/issues/1/links`).map((r) => r.body)).toEqual([
      { target_project_id: 'group/other', target_issue_iid: 9, link_type: 'relates_to' },
      { target_project_id: 'group/sub/project', target_issue_iid: 2, link_type: 'is_blocked_by' },
    ]);
  });

  it('refuses a link type GitLab does not have, naming the allowed ones', async () => {
    const result = await rig.call('link_issues', { key: '#1', target_key: '#2', link_type: 'duplicates' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/link_type.*duplicates.*relates_to.*blocks.*is_blocked_by/s);
    expect(rig.fake.sent('POST', `${PROJECT_PATH}/issues/1/links`)).toHaveLength(0);
  });
});
