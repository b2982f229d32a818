// The jira plugin's tracker metadata and sprint tools: statuses (project-wide and reachable), custom fields with their
// parameters, users on Cloud and Server, a board's sprints, and moving issues into a sprint by name.
import { afterEach, describe, expect, it } from 'vitest';
import { jira } from './support/fake-jira.js';
import { OPS, PROJ } from './support/fake-jira-metadata.js';
import { type JiraRig, authHeader, startJiraRig, structured, text } from './support/fake-jira-harness.js';

let rig: JiraRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('get_available_statuses', () => {
  it("lists each project's statuses with their category and issue types", async () => {
    rig = await startJiraRig({ projects: [PROJ, OPS] });
    // Each project's statuses were read once, with the metadata, and the tool answers from them.
    const statusReads = () =>
      ['PROJ', 'OPS'].map((key) => rig?.sent('GET', `/rest/api/3/project/${key}/statuses`) ?? []);
    expect(statusReads().map((sent) => sent.map((r) => r.query))).toEqual([[{}], [{}]]);
    const before = rig.fake.requests.length;
    const data = structured(await rig.call('get_available_statuses')) as { items: unknown[] };
    expect(rig.fake.requests.length).toBe(before);
    expect(data.items).toEqual([
      { name: 'To Do', category: 'new', scope: 'PROJ: Task, Bug, Sub-task' },
      { name: 'In Progress', category: 'indeterminate', scope: 'PROJ: Task, Bug, Sub-task' },
      { name: 'Done', category: 'done', scope: 'PROJ: Task, Bug, Sub-task' },
      { name: 'Open', category: 'new', scope: 'OPS: Incident' },
      { name: 'Resolved', category: 'done', scope: 'OPS: Incident' },
    ]);
  });

  it('with a key, lists the statuses reachable now and the transition to each', async () => {
    rig = await startJiraRig();
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7/transitions', {
      status: 200,
      body: { transitions: [jira.transition('31', 'Close', jira.status('Done', 'done'))] },
    });
    const data = structured(await rig.call('get_available_statuses', { key: 'PROJ-7' })) as {
      items: unknown[];
    };
    expect(data.items).toEqual([{ name: 'Done', category: 'done', transition: 'Close' }]);
    const sent = rig.sent('GET', '/rest/api/3/issue/PROJ-7/transitions');
    expect(sent.map((r) => r.query)).toEqual([{}]);
    expect(sent[0]?.headers.authorization).toBe(authHeader('cloud'));
  });
});

describe('get_custom_fields', () => {
  it('gives each field its parameter, kind, options and where it is required', async () => {
    rig = await startJiraRig();
    const data = structured(await rig.call('get_custom_fields')) as { items: Record<string, unknown>[] };
    const severity = data.items.find((f) => f.id === 'customfield_10100');
    expect(severity).toEqual({
      id: 'customfield_10100',
      name: 'Severity',
      type: 'option',
      param: 'cf_severity',
      options: ['Critical', 'High', 'Medium', 'Low'],
      required: true,
      scope: 'Task, Bug (required for Bug); one option',
    });
    expect(data.items.find((f) => f.name === 'Приоритет клиента')?.param).toBe('cf_prioritet_klienta');
    expect(data.items).toHaveLength(16);
  });
});

describe('without project metadata', () => {
  it("reads statuses and the site's custom fields straight from Jira", async () => {
    rig = await startJiraRig({ metadata: false });
    rig.fake.route('GET', '/rest/api/3/project/PROJ/statuses', {
      status: 200,
      body: [
        { self: '', id: '10001', name: 'Task', subtask: false, statuses: [jira.status('To Do', 'new')] },
      ],
    });
    rig.fake.route('GET', '/rest/api/3/field', {
      status: 200,
      body: [
        jira.siteField('summary', 'Summary', { type: 'string' }),
        jira.siteField('customfield_10100', 'Severity', {
          type: 'option',
          custom: 'com.atlassian.jira.plugin.system.customfieldtypes:select',
        }),
        jira.siteField('customfield_10300', 'Team', {
          type: 'team',
          custom: 'com.atlassian.teams:rm-teams-custom-field-team',
        }),
      ],
    });
    const reads = rig.sent('GET', '/rest/api/3/project/PROJ/statuses').length;
    const statuses = structured(await rig.call('get_available_statuses')) as { items: unknown[] };
    expect(statuses.items).toEqual([{ name: 'To Do', category: 'new', scope: 'PROJ: Task' }]);
    // Without metadata the call itself reads them.
    expect(rig.sent('GET', '/rest/api/3/project/PROJ/statuses')).toHaveLength(reads + 1);
    const fields = structured(await rig.call('get_custom_fields')) as { items: unknown[] };
    expect(fields.items).toEqual([
      { id: 'customfield_10100', name: 'Severity', type: 'option' },
      { id: 'customfield_10300', name: 'Team', type: 'team' },
    ]);
  });
});

describe('get_users', () => {
  it('searches Cloud users by query and gives their accountId', async () => {
    rig = await startJiraRig();
    rig.fake.route('GET', '/rest/api/3/user/search', {
      status: 200,
      body: [
        jira.user('cloud', 'acc-1', 'Mia Krystof'),
        { ...jira.user('cloud', 'app-1', 'Automation'), accountType: 'app' },
      ],
    });
    const data = structured(await rig.call('get_users', { search: 'mia', limit: 10 })) as {
      items: unknown[];
    };
    expect(rig.sent('GET', '/rest/api/3/user/search')[0]?.query).toEqual({
      query: 'mia',
      startAt: '0',
      maxResults: '10',
    });
    expect(data.items).toEqual([{ id: 'acc-1', name: 'Mia Krystof', active: true }]);
  });

  it('searches Server users by username and gives their name', async () => {
    rig = await startJiraRig({ flavor: 'server' });
    rig.fake.route('GET', '/rest/api/2/user/search', {
      status: 200,
      body: [jira.user('server', 'mia', 'Mia Krystof')],
    });
    const data = structured(await rig.call('get_users')) as { items: unknown[] };
    expect(rig.sent('GET', '/rest/api/2/user/search')[0]?.query.username).toBe('.');
    expect(data.items).toEqual([
      { id: 'mia', name: 'Mia Krystof', username: 'mia', email: 'mia@example.com', active: true },
    ]);
  });
});

describe('sprints', () => {
  const routeBoard = (r: JiraRig) => {
    r.fake.route('GET', '/rest/agile/1.0/board', {
      status: 200,
      body: {
        maxResults: 50,
        startAt: 0,
        isLast: true,
        values: [{ id: 7, self: '', name: 'PROJ board', type: 'scrum' }],
      },
    });
    r.fake.route('GET', '/rest/agile/1.0/board/7/sprint', {
      status: 200,
      body: {
        maxResults: 20,
        startAt: 0,
        isLast: true,
        values: [jira.sprint(42, 'Sprint 4', 'active'), jira.sprint(43, 'Sprint 5', 'future')],
      },
    });
  };

  it("lists the project's board's open sprints", async () => {
    rig = await startJiraRig();
    routeBoard(rig);
    const data = structured(await rig.call('get_board_sprints')) as { items: Record<string, unknown>[] };
    expect(rig.sent('GET', '/rest/agile/1.0/board')[0]?.query.projectKeyOrId).toBe('PROJ');
    expect(rig.sent('GET', '/rest/agile/1.0/board/7/sprint')[0]?.query.state).toBe('active,future');
    expect(data.items[0]).toEqual({
      id: '42',
      name: 'Sprint 4',
      state: 'active',
      board: '7',
      startAt: '2024-03-04T09:00:00.000Z',
      endAt: '2024-03-18T17:00:00.000Z',
      goal: 'Goal of Sprint 4',
    });
  });

  it('finds a board by name, and names the boards there are when none matches', async () => {
    rig = await startJiraRig();
    routeBoard(rig);
    const found = structured(await rig.call('get_board_sprints', { board: 'proj board', state: 'all' })) as {
      items: unknown[];
    };
    expect(rig.sent('GET', '/rest/agile/1.0/board')[0]?.query.name).toBe('proj board');
    expect(rig.sent('GET', '/rest/agile/1.0/board/7/sprint')[0]?.query.state).toBeUndefined();
    expect(found.items).toHaveLength(2);
    const missing = await rig.call('get_board_sprints', { board: 'Ops board' });
    expect(text(missing)).toContain('board: no board named "Ops board"; boards: PROJ board (7)');
  });

  it('moves issues into a sprint found by name', async () => {
    rig = await startJiraRig();
    routeBoard(rig);
    rig.fake.route('POST', '/rest/agile/1.0/sprint/43/issue', { status: 204 });
    const result = await rig.call('assign_to_sprint', { sprint: 'sprint 5', keys: ['proj-1', 2] });
    expect(text(result)).toBe('Moved PROJ-1, PROJ-2 to sprint Sprint 5 (43)');
    expect(rig.sent('POST', '/rest/agile/1.0/sprint/43/issue')[0]?.body).toEqual({
      issues: ['PROJ-1', 'PROJ-2'],
    });
  });

  it('moves more than 50 issues in batches of 50, as Jira Agile allows', async () => {
    rig = await startJiraRig();
    routeBoard(rig);
    rig.fake.route('GET', '/rest/agile/1.0/sprint/42', {
      status: 200,
      body: jira.sprint(42, 'Sprint 4', 'active'),
    });
    rig.fake.route('POST', '/rest/agile/1.0/sprint/42/issue', { status: 204 });
    const keys = Array.from({ length: 120 }, (_, i) => `PROJ-${i + 1}`);
    const result = await rig.call('assign_to_sprint', { sprint: 42, keys });
    expect(result.isError, text(result)).toBeFalsy();
    const sent = rig.sent('POST', '/rest/agile/1.0/sprint/42/issue').map((r) => r.body);
    expect(sent).toEqual([
      { issues: keys.slice(0, 50) },
      { issues: keys.slice(50, 100) },
      { issues: keys.slice(100) },
    ]);
  });

  it('says which issues moved when a later batch is refused', async () => {
    rig = await startJiraRig();
    routeBoard(rig);
    rig.fake.route('GET', '/rest/agile/1.0/sprint/42', {
      status: 200,
      body: jira.sprint(42, 'Sprint 4', 'active'),
    });
    let calls = 0;
    rig.fake.route('POST', '/rest/agile/1.0/sprint/42/issue', () =>
      ++calls === 1
        ? { status: 204 }
        : { status: 400, body: { errorMessages: ['Issue PROJ-60 does not exist.'], errors: {} } },
    );
    const keys = Array.from({ length: 60 }, (_, i) => `PROJ-${i + 1}`);
    const result = await rig.call('assign_to_sprint', { sprint: 42, keys });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(
      `moved ${keys.slice(0, 50).join(', ')} to sprint Sprint 4 (42), but not ${keys.slice(50).join(', ')}: `,
    );
    expect(text(result)).toContain('Issue PROJ-60 does not exist.');
  });

  it('names the sprints there are when the name matches none', async () => {
    rig = await startJiraRig();
    routeBoard(rig);
    const result = await rig.call('assign_to_sprint', { sprint: 'Sprint 9', keys: ['PROJ-1'] });
    expect(text(result)).toContain(
      'sprint: no active or future sprint "Sprint 9" on board 7; sprints: Sprint 4 (42), Sprint 5 (43)',
    );
  });
});
