// The task tools against the loopback ClickUp: the queries get_issues sends, tasks shaped as issues with
// custom fields by name, comments oldest first, relations, and the writes (assignees and tags replaced,
// state through the list's statuses, comments, dependencies and links).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FIELDS,
  LIST_ID,
  OTHER_LIST_ID,
  comment,
  member,
  status,
  task,
} from './support/fake-clickup-bodies.js';
import {
  type ClickUpRig,
  isListMetadata,
  startClickUpRig,
  structured,
  text,
} from './support/fake-clickup.js';

let rig: ClickUpRig;
afterEach(async () => {
  await rig.close();
});

describe('reading tasks', () => {
  beforeEach(async () => {
    rig = await startClickUpRig();
    await rig.metadataLoaded();
  });

  it('get_issues maps the filters to ClickUp query parameters and the page to limit/offset', async () => {
    rig.fake.route('GET', `/list/${LIST_ID}/task`, {
      status: 200,
      body: { tasks: [task('86a'), task('86b')], last_page: true },
    });
    const result = await rig.call('get_issues', {
      state: 'all',
      statuses: ['in progress'],
      labels: ['backend'],
      assignee: 'Ann Lee',
      sort: 'updated',
      order: 'asc',
      created_after: '2025-01-01',
      created_before: '2025-02-01',
      updated_after: '2025-01-15',
      due_after: '2025-03-01',
      due_before: '2025-04-01',
      limit: 1,
    });
    expect(result.isError, text(result)).toBeFalsy();
    const [sent] = rig.fake.sent('GET', `/list/${LIST_ID}/task`);
    const ms = (day: string) => String(Date.parse(`${day}T00:00:00Z`));
    expect(sent?.query).toEqual({
      page: '0',
      include_markdown_description: 'true',
      include_closed: 'true',
      order_by: 'updated',
      reverse: 'true',
      'statuses[]': 'in progress',
      'tags[]': 'backend',
      'assignees[]': '183',
      date_created_gt: String(Number(ms('2025-01-01')) - 1),
      date_created_lt: ms('2025-02-01'),
      date_updated_gt: String(Number(ms('2025-01-15')) - 1),
      due_date_gt: String(Number(ms('2025-03-01')) - 1),
      due_date_lt: ms('2025-04-01'),
    });
    expect(structured(result)).toMatchObject({
      kind: 'issue_list',
      items: [{ key: '86a', title: 'Task 86a', state: 'to do', priority: 'high', labels: ['backend'] }],
      page: { offset: 0, limit: 1, total: 2 },
    });
  });

  it('get_issues takes several assignees and "me" (the token\'s user, read once) as assignees[]', async () => {
    rig.fake.route('GET', '/user', {
      status: 200,
      body: { user: { ...member(190, 'Dee Ek'), week_start_day: 1 } },
    });
    rig.fake.route('GET', `/list/${LIST_ID}/task`, { status: 200, body: { tasks: [], last_page: true } });
    const schema = (await rig.schemas()).get('get_issues');
    expect(schema?.assignees).toMatchObject({ type: 'array' });
    const result = await rig.call('get_issues', {
      assignees: ['me', 'Bo Chen', 183],
      assignee: 'ann lee@example.com',
    });
    expect(result.isError, text(result)).toBeFalsy();
    await rig.call('get_issues', { assignee: 'me' });
    const [both, meOnly] = rig.fake.sent('GET', `/list/${LIST_ID}/task`);
    expect(both?.queryAll['assignees[]']).toEqual(['190', '184', '183']);
    expect(meOnly?.queryAll['assignees[]']).toEqual(['190']);
    // The first is the health probe at start, before any call; "me" is read once after it.
    const user = rig.fake.sent('GET', '/user');
    expect(user).toHaveLength(2);
    expect(user[1]?.query).toEqual({});
    const unknown = await rig.call('get_issues', { assignees: ['Zed'] });
    expect(text(unknown)).toContain(
      'assignees: "Zed" is not a member of the list; members: Ann Lee, Bo Chen',
    );
  });

  it('get_issues reads the page that holds offset (ClickUp pages from 0, 100 tasks each)', async () => {
    rig.fake.route('GET', `/list/${LIST_ID}/task`, (request) => ({
      status: 200,
      body: {
        tasks: Array.from({ length: 100 }, (_, i) => task(`t${request.query.page}x${i}`)),
        last_page: request.query.page === '2',
      },
    }));
    const result = await rig.call('get_issues', { offset: 150, limit: 2 });
    expect(rig.fake.sent('GET', `/list/${LIST_ID}/task`).map((r) => r.query.page)).toEqual(['1']);
    expect(structured(result).items).toMatchObject([{ key: 't1x50' }, { key: 't1x51' }]);
  });

  it('get_issues open and closed do not overlap: open sends the open statuses, closed the done and closed ones', async () => {
    // ClickUp answers only the statuses asked for (and closed-type ones only with include_closed).
    const all = [
      task('86todo'),
      task('86doing', { status: { status: 'in progress', type: 'custom' } }),
      task('86shut', { status: { status: 'complete', type: 'closed' } }),
    ];
    rig.fake.route('GET', `/list/${LIST_ID}/task`, (request) => {
      const wanted = request.queryAll['statuses[]'] ?? [];
      const tasks = all.filter((t) => {
        const status = t.status as { status: string; type: string };
        if (status.type === 'closed' && request.query.include_closed !== 'true') return false;
        return wanted.length === 0 || wanted.includes(status.status);
      });
      return { status: 200, body: { tasks, last_page: true } };
    });
    const open = await rig.call('get_issues', {});
    const closed = await rig.call('get_issues', { state: 'closed' });
    const [openSent, closedSent] = rig.fake.sent('GET', `/list/${LIST_ID}/task`);
    expect(openSent?.queryAll['statuses[]']).toEqual(['to do', 'in progress', 'review']);
    expect(openSent?.query).not.toHaveProperty('include_closed');
    expect(closedSent?.queryAll['statuses[]']).toEqual(['complete']);
    expect(closedSent?.query.include_closed).toBe('true');
    expect(structured(open)).toMatchObject({
      items: [{ key: '86todo' }, { key: '86doing' }],
      page: { total: 2 },
    });
    expect(structured(closed)).toMatchObject({ items: [{ key: '86shut' }], page: { total: 1 } });
  });

  it('get_issue shows custom fields by name, relations and comments oldest first', async () => {
    rig.fake.route('GET', '/task/:id', (_r, p) => ({
      status: 200,
      body: task(p.id ?? '', {
        parent: '86parent',
        custom_fields: [
          { ...FIELDS.severity, value: 1 },
          { ...FIELDS.areas, value: ['lab-api'] },
          { ...FIELDS.approved, value: 'true' },
          { ...FIELDS.launch, value: '1740787200000' },
          { ...FIELDS.notes },
        ],
        subtasks: [task('86sub', { parent: p.id })],
        dependencies: [
          { task_id: p.id, depends_on: '86dep', type: 1, date_created: '1', userid: '183' },
          { task_id: '86waits', depends_on: p.id, type: 1, date_created: '1', userid: '183' },
        ],
        linked_tasks: [{ task_id: p.id, link_id: '86link', date_created: '1', userid: '183' }],
      }),
    }));
    rig.fake.route('GET', '/task/:id/comment', {
      status: 200,
      body: {
        comments: [comment('2', 'newer', 1_700_000_002_000), comment('1', 'older', 1_700_000_001_000)],
      },
    });
    const result = await rig.call('get_issue', {
      key: 'https://app.clickup.com/t/86a1b2c3d',
      include_relations: true,
      include_comments: true,
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(rig.fake.sent('GET', '/task/86a1b2c3d')[0]?.query).toEqual({
      include_markdown_description: 'true',
      include_subtasks: 'true',
    });
    const data = structured(result) as { item: Record<string, unknown>; comments: { body: string }[] };
    expect(data.item).toMatchObject({
      key: '86a1b2c3d',
      body: '**Plain** text',
      author: 'Ann Lee',
      assignees: ['Bo Chen'],
      parent: '86parent',
      customFields: {
        Severity: 'High',
        Areas: ['API'],
        Approved: true,
        Launch: '2025-03-01T00:00:00.000Z',
        'Due date': '2025-01-01T00:00:00.000Z',
      },
    });
    expect(data.item.customFields).not.toHaveProperty('Notes');
    expect(data.item.links).toEqual([
      { key: '86parent', relation: 'parent' },
      {
        key: '86sub',
        relation: 'subtask',
        title: 'Task 86sub',
        state: 'to do',
        url: 'https://app.clickup.com/t/86sub',
      },
      { key: '86dep', relation: 'waiting on' },
      { key: '86waits', relation: 'blocking' },
      { key: '86link', relation: 'linked to' },
    ]);
    expect(data.comments.map((c) => c.body)).toEqual(['older', 'newer']);
  });

  it('get_issue_comments pages back with start and start_id until a short page', async () => {
    const first = Array.from({ length: 25 }, (_, i) =>
      comment(String(100 - i), `c${100 - i}`, 1_700_000_000_000 + (100 - i)),
    );
    rig.fake.route('GET', '/task/:id/comment', (request) => ({
      status: 200,
      body: { comments: request.query.start ? [comment('1', 'first', 1_600_000_000_000)] : first },
    }));
    const result = await rig.call('get_issue_comments', { key: '86a1b2c3d', limit: 2 });
    const sent = rig.fake.sent('GET', '/task/86a1b2c3d/comment');
    expect(sent[1]?.query).toEqual({ start: String(1_700_000_000_000 + 76), start_id: '76' });
    expect(structured(result)).toMatchObject({
      kind: 'comment_list',
      items: [{ id: '1', body: 'first' }, { id: '76' }],
      page: { total: 26 },
    });
  });
});

describe('get_issues state by status type', () => {
  const statuses = [
    status('to do', 'open', 0),
    status('in progress', 'custom', 1),
    status('shipped', 'done', 2),
    status('archived', 'closed', 3),
  ];
  const answer = (types: [string, string][]) => ({
    status: 200,
    body: {
      tasks: types.map(([id, type]) => task(id, { status: { status: id, type } })),
      last_page: true,
    },
  });

  it("counts a done-type status as closed, never open, with the list's statuses loaded", async () => {
    rig = await startClickUpRig({ lists: [{ id: LIST_ID, name: 'Backlog', statuses }] });
    await rig.metadataLoaded();
    rig.fake.route('GET', `/list/${LIST_ID}/task`, answer([]));
    await rig.call('get_issues', { state: 'open' });
    await rig.call('get_issues', { state: 'closed' });
    const [open, closed] = rig.fake.sent('GET', `/list/${LIST_ID}/task`);
    expect(open?.queryAll['statuses[]']).toEqual(['to do', 'in progress']);
    expect(open?.query).not.toHaveProperty('include_closed');
    expect(closed?.queryAll['statuses[]']).toEqual(['shipped', 'archived']);
    expect(closed?.query.include_closed).toBe('true');
  });

  it('keeps open and closed apart by status type while the metadata is missing', async () => {
    rig = await startClickUpRig({ lists: false, unmatched: isListMetadata });
    rig.fake.route(
      'GET',
      `/list/${LIST_ID}/task`,
      answer([
        ['86open', 'open'],
        ['86custom', 'custom'],
        ['86done', 'done'],
        ['86closed', 'closed'],
      ]),
    );
    const open = await rig.call('get_issues', {});
    const closed = await rig.call('get_issues', { state: 'closed' });
    const [openSent, closedSent] = rig.fake.sent('GET', `/list/${LIST_ID}/task`);
    expect(openSent?.queryAll).not.toHaveProperty('statuses[]');
    expect(openSent?.query).not.toHaveProperty('include_closed');
    expect(closedSent?.query.include_closed).toBe('true');
    expect((structured(open).items as { key: string }[]).map((i) => i.key)).toEqual(['86open', '86custom']);
    expect((structured(closed).items as { key: string }[]).map((i) => i.key)).toEqual(['86done', '86closed']);
  });
});

describe('writing tasks', () => {
  beforeEach(async () => {
    rig = await startClickUpRig();
    rig.fake.route('GET', '/task/:id', (_r, p) => ({ status: 200, body: task(p.id ?? '') }));
    rig.fake.route('PUT', '/task/:id', (_r, p) => ({ status: 200, body: task(p.id ?? '') }));
    await rig.metadataLoaded();
  });

  it("update_issue replaces assignees and tags, and closes through the list's closed status", async () => {
    rig.fake.route('POST', '/task/:id/tag/:tag', { status: 200, body: {} });
    rig.fake.route('DELETE', '/task/:id/tag/:tag', { status: 200, body: {} });
    const result = await rig.call('update_issue', {
      key: '#86A1B2C3D',
      title: 'Renamed',
      body: '# New',
      state: 'closed',
      assignees: ['Ann Lee'],
      labels: ['frontend'],
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(rig.fake.sent('PUT', '/task/86a1b2c3d')[0]?.body).toEqual({
      name: 'Renamed',
      markdown_content: '# New',
      status: 'complete',
      assignees: { add: [183], rem: [184] },
    });
    expect(rig.fake.sent('POST', '/task/86a1b2c3d/tag/frontend')).toHaveLength(1);
    expect(rig.fake.sent('DELETE', '/task/86a1b2c3d/tag/backend')).toHaveLength(1);
    expect(text(result)).toContain('Updated 86a1b2c3d');
  });

  it('add_issue_comment posts comment_text', async () => {
    rig.fake.route('POST', '/task/:id/comment', {
      status: 200,
      body: { id: 458, hist_id: '26508', date: 1568036964079 },
    });
    const result = await rig.call('add_issue_comment', { key: '86a1b2c3d', body: 'Looks good' });
    expect(rig.fake.sent('POST', '/task/86a1b2c3d/comment')[0]?.body).toEqual({
      comment_text: 'Looks good',
      notify_all: false,
    });
    expect(structured(result)).toMatchObject({
      kind: 'comment_list',
      items: [{ id: '458', body: 'Looks good' }],
    });
  });

  it('link_issues makes dependencies either way and plain links', async () => {
    rig.fake.route('POST', '/task/:id/dependency', { status: 200, body: {} });
    rig.fake.route('POST', '/task/:id/link/:other', (_r, p) => ({
      status: 200,
      body: { task: task(p.id ?? '') },
    }));
    await rig.call('link_issues', { key: '86a', target_key: '86b', link_type: 'waiting_on' });
    await rig.call('link_issues', { key: '86a', target_key: '86c', link_type: 'blocking' });
    const linked = await rig.call('link_issues', { key: '86a', target_key: '86d' });
    // The agent is held to the link types it was shown; other words are refused before the enricher sees them.
    const worded = await rig.call('link_issues', { key: '86a', target_key: '86e', link_type: 'blocked by' });
    expect(text(worded)).toContain(
      'parameter "link_type" is "blocked by"; allowed: "linked", "waiting_on", "blocking"',
    );
    expect(rig.fake.sent('POST', '/task/86a/dependency').map((r) => r.body)).toEqual([
      { depends_on: '86b' },
      { dependency_of: '86c' },
    ]);
    expect(rig.fake.sent('POST', '/task/86a/link/86d')).toHaveLength(1);
    expect(text(linked)).toContain('Linked 86a');
  });
});

describe('several lists', () => {
  beforeEach(async () => {
    rig = await startClickUpRig({
      lists: [
        { id: LIST_ID, name: 'Backlog', fields: [FIELDS.severity] },
        { id: OTHER_LIST_ID, name: 'Ops', fields: [FIELDS.approved] },
      ],
    });
    await rig.metadataLoaded();
  });

  it('get_issues reads all lists in turn, or the one named', async () => {
    rig.fake.route('GET', `/list/${LIST_ID}/task`, {
      status: 200,
      body: { tasks: [task('86a')], last_page: true },
    });
    rig.fake.route('GET', `/list/${OTHER_LIST_ID}/task`, {
      status: 200,
      body: { tasks: [task('86z')], last_page: true },
    });
    const all = await rig.call('get_issues', {});
    expect(structured(all)).toMatchObject({ items: [{ key: '86a' }, { key: '86z' }], page: { total: 2 } });
    const ops = await rig.call('get_issues', { list: 'Ops' });
    expect(structured(ops)).toMatchObject({ items: [{ key: '86z' }] });
  });

  it('create_issue goes to the named list and refuses a field that list lacks', async () => {
    rig.fake.route('POST', '/list/:list/task', { status: 200, body: task('86new') });
    const ok = await rig.call('create_issue', { title: 'x', list: 'Ops', cf_approved: true });
    expect(ok.isError, text(ok)).toBeFalsy();
    expect(rig.fake.sent('POST', `/list/${OTHER_LIST_ID}/task`)[0]?.body).toMatchObject({
      custom_fields: [{ id: 'f-ok', value: true }],
    });
    const bad = await rig.call('create_issue', { title: 'x', list: 'Ops', cf_severity: 'High' });
    expect(text(bad)).toContain('cf_severity: list Ops has no field "Severity"; it is on Backlog');
    const none = await rig.call('create_issue', { title: 'x' });
    expect(none.isError).toBe(true);
  });
});

describe('custom task ids', () => {
  it('reads "DEV-42" with custom_task_ids and team_id, and shows tasks by their custom id', async () => {
    rig = await startClickUpRig({ options: { custom_task_ids: true, team_id: '9011234080' } });
    rig.fake.route('GET', '/task/:id', (_r, p) => ({
      status: 200,
      body: task('86a1b2c3d', { custom_id: p.id }),
    }));
    const result = await rig.call('get_issue', { key: 'dev-42' });
    expect(rig.fake.sent('GET', '/task/DEV-42')[0]?.query).toEqual({
      custom_task_ids: 'true',
      team_id: '9011234080',
      include_markdown_description: 'true',
    });
    expect(structured(result)).toMatchObject({ item: { key: 'DEV-42' } });
  });

  it('link_issues looks a custom-id target up and sends its real id, in the path and in the body', async () => {
    rig = await startClickUpRig({ options: { custom_task_ids: true, team_id: '9011234080' } });
    await rig.metadataLoaded();
    const real: Record<string, string> = { 'DEV-7': '86seven', 'DEV-8': '86eight', 'DEV-42': '86a1b2c3d' };
    rig.fake.route('GET', '/task/:id', (_r, p) => ({
      status: 200,
      body: task(real[p.id ?? ''] ?? p.id ?? '', { custom_id: p.id }),
    }));
    rig.fake.route('POST', '/task/:id/dependency', { status: 200, body: {} });
    rig.fake.route('POST', '/task/:id/link/:other', (_r, p) => ({
      status: 200,
      body: { task: task(p.id ?? '') },
    }));
    await rig.call('link_issues', { key: 'DEV-42', target_key: 'DEV-7', link_type: 'waiting_on' });
    await rig.call('link_issues', { key: 'DEV-42', target_key: 'dev-8', link_type: 'blocking' });
    const linked = await rig.call('link_issues', { key: 'DEV-42', target_key: 'DEV-7' });
    expect(linked.isError, text(linked)).toBeFalsy();
    const custom = { custom_task_ids: 'true', team_id: '9011234080' };
    expect(rig.fake.sent('GET', '/task/DEV-7').map((r) => r.query)).toEqual([custom, custom]);
    expect(rig.fake.sent('GET', '/task/DEV-8')).toHaveLength(1);
    const dependencies = rig.fake.sent('POST', '/task/DEV-42/dependency');
    expect(dependencies.map((r) => r.body)).toEqual([
      { depends_on: '86seven' },
      { dependency_of: '86eight' },
    ]);
    expect(dependencies.map((r) => r.query)).toEqual([custom, custom]);
    expect(rig.fake.sent('POST', '/task/DEV-42/link/86seven').map((r) => r.query)).toEqual([custom]);
  });
});
