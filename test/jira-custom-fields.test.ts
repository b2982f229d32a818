// cf_ parameters on their way to Jira: each kind in the API's exact format (Cloud and Server), bad values refused with
// what is allowed, and with several projects each value checked against the chosen project's field.
import { afterEach, describe, expect, it } from 'vitest';
import { type Flavor, jira } from './support/fake-jira.js';
import { OPS, PROJ } from './support/fake-jira-metadata.js';
import { type JiraRig, startJiraRig, text } from './support/fake-jira-harness.js';

let rig: JiraRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function rigWithCreate(flavor: Flavor, projects = [PROJ]): Promise<JiraRig> {
  const r = await startJiraRig({ flavor, projects });
  r.fake.route('POST', `${r.api}/issue`, (request) => {
    const project = (request.body as { fields: { project: { key: string } } }).fields.project.key;
    return {
      status: 201,
      body: { id: '10008', key: `${project}-8`, self: `${r.fake.url}${r.api}/issue/10008` },
    };
  });
  // User search as Jira answers it: Cloud matches `query` against names and emails, Server `username` against
  // user names, names and emails.
  r.fake.route('GET', `${r.api}/user/search`, (request) => {
    const wanted = (flavor === 'cloud' ? request.query.query : request.query.username)?.toLowerCase() ?? '';
    const users = PEOPLE.filter((p) =>
      [p.displayName, p.email, ...(flavor === 'server' ? [p.name] : [])].some((w) =>
        w.toLowerCase().includes(wanted),
      ),
    ).map((p) => ({
      ...jira.user(flavor, flavor === 'cloud' ? p.accountId : p.name, p.displayName),
      emailAddress: p.email,
    }));
    return { status: 200, body: users };
  });
  r.fake.route('GET', `${r.api}/issue/:key`, (_request, params) => ({
    status: 200,
    body: jira.issue(flavor, params.key ?? '', { summary: 'Crash on save' }),
  }));
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
      maxResults: 50,
      startAt: 0,
      isLast: true,
      values: [jira.sprint(42, 'Sprint 4', 'active'), jira.sprint(43, 'Sprint 5', 'future')],
    },
  });
  return r;
}

/** An epic as Cloud gives its issue type: hierarchy level 1. */
const EPIC_CLOUD = { ...jira.issueType('10000', 'Epic'), hierarchyLevel: 1 };

/** The site's people: two share a display name. */
const MIA = '5b10ac8d82e05b22cc7d4ef5';
const DEE = '557058:f58131cb-b67d-43c7-b30d-6b58d40bd077';
const PEOPLE = [
  { accountId: MIA, name: 'mia', displayName: 'Mia Krystof', email: 'mia@example.com' },
  { accountId: DEE, name: 'dee', displayName: 'Dee Ek', email: 'dee@example.com' },
  { accountId: '5b109f2e9729b51b54dc274d', name: 'jdoe', displayName: 'John Doe', email: 'jdoe@example.com' },
  {
    accountId: '5b10a0effa615349cb016cd8',
    name: 'alex1',
    displayName: 'Alex Lee',
    email: 'alex1@example.com',
  },
  {
    accountId: '5b10a0effa615349cb016cd9',
    name: 'alex2',
    displayName: 'Alex Lee',
    email: 'alex2@example.com',
  },
];

const sentFields = (r: JiraRig) =>
  (r.sent('POST', `${r.api}/issue`).at(-1)?.body as { fields: Record<string, unknown> }).fields;

const EVERY_KIND = {
  cf_severity: 'High',
  cf_platforms: ['iOS', 'Web'],
  cf_reviewer: 'Mia Krystof',
  cf_approvers: ['dee@example.com', 'john doe'],
  cf_budget: 12.5,
  cf_launch_date: '2024-05-01',
  cf_go_live: '2024-05-01T12:00:00Z',
  cf_tags: ['alpha', 'beta'],
  cf_notes: '**Bold** note',
  cf_short_note: 'short',
  cf_docs: 'https://docs.example.com/x',
  cf_region: 'Europe > France',
  cf_target_version: '2.0',
  cf_affected_builds: ['1.0'],
  cf_prioritet_klienta: 'Высокий',
  cf_u4f18_u5148_u7ea7: '低',
};

describe('create_issue on Jira Cloud', () => {
  it('sends every custom field kind in the v3 API format, with ADF text', async () => {
    rig = await rigWithCreate('cloud');
    const result = await rig.call('create_issue', {
      title: 'Crash on save',
      body: 'Steps:\n\n1. open',
      type: 'Bug',
      priority: 'urgent',
      components: ['Backend'],
      labels: ['crash'],
      assignees: [DEE],
      due_date: '2024-06-01',
      points: 3,
      sprint: 'Sprint 4',
      milestone: '2.0',
      ...EVERY_KIND,
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(text(result)).toMatch(
      /^Created PROJ-8: Crash on save\nhttp:\/\/127\.0\.0\.1:\d+\/browse\/PROJ-8$/,
    );
    expect(sentFields(rig)).toEqual({
      project: { key: 'PROJ' },
      issuetype: { name: 'Bug' },
      summary: 'Crash on save',
      // ADF as Atlassian's document format spec writes it: a paragraph, then an ordered list of one item.
      description: {
        type: 'doc',
        version: 1,
        content: [
          { type: 'paragraph', content: [{ type: 'text', text: 'Steps:' }] },
          {
            type: 'orderedList',
            attrs: { order: 1 },
            content: [
              {
                type: 'listItem',
                content: [{ type: 'paragraph', content: [{ type: 'text', text: 'open' }] }],
              },
            ],
          },
        ],
      },
      priority: { name: 'Highest' },
      components: [{ name: 'Backend' }],
      labels: ['crash'],
      fixVersions: [{ name: '2.0' }],
      assignee: { accountId: DEE },
      duedate: '2024-06-01',
      customfield_10016: 3,
      customfield_10020: 42,
      customfield_10100: { id: '2' },
      customfield_10101: [{ id: '11' }, { id: '13' }],
      customfield_10102: { accountId: MIA },
      customfield_10103: [{ accountId: DEE }, { accountId: '5b109f2e9729b51b54dc274d' }],
      customfield_10104: 12.5,
      customfield_10105: '2024-05-01',
      customfield_10106: '2024-05-01T12:00:00.000+0000',
      customfield_10107: ['alpha', 'beta'],
      customfield_10108: {
        type: 'doc',
        version: 1,
        content: [
          {
            type: 'paragraph',
            content: [
              { type: 'text', text: 'Bold', marks: [{ type: 'strong' }] },
              { type: 'text', text: ' note' },
            ],
          },
        ],
      },
      customfield_10109: 'short',
      customfield_10110: 'https://docs.example.com/x',
      customfield_10111: { id: '21', child: { id: '23' } },
      customfield_10112: { id: '32' },
      customfield_10113: [{ id: '31' }],
      customfield_10114: { id: '41' },
      customfield_10115: { id: '52' },
    });
  });

  it('refuses a bad option, naming the parameter, the value and the options', async () => {
    rig = await rigWithCreate('cloud');
    const result = await rig.call('create_issue', { title: 'x', cf_severity: 'Hgh' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(
      'invalid arguments for tool "jira__create_issue": parameter "cf_severity" is "Hgh"; allowed: "Critical", "High", "Medium", "Low", null',
    );
    expect(rig.sent('POST', `${rig.api}/issue`)).toHaveLength(0);
  });

  // What the listed schema says is refused before the enricher runs, in the agent's names; the rest by the enricher.
  it.each([
    [{ cf_region: 'Europe > Japan' }, 'parameter "cf_region" is "Europe > Japan"; allowed: "Europe"'],
    [
      { cf_platforms: ['iOS', 'Symbian'] },
      'parameter "cf_platforms.1" is "Symbian"; allowed: "iOS", "Android"',
    ],
    [{ cf_go_live: 'tomorrow' }, 'cf_go_live: "tomorrow" is not a date and time'],
    [{ cf_tags: ['two words'] }, 'cf_tags'],
    [
      { priority: 'whenever' },
      'parameter "priority" is "whenever"; allowed: "Highest", "High", "Medium", "Low", "Lowest", "urgent"',
    ],
    [{ type: 'Sub-task' }, 'parameter "type" is "Sub-task"; allowed: "Task", "Bug"'],
    [{ type: 'Story' }, 'parameter "type" is "Story"; allowed: "Task", "Bug"'],
    [{ components: ['Mobile'] }, 'parameter "components.0" is "Mobile"; allowed: "Backend", "Frontend"'],
  ])('refuses %j', async (args, message) => {
    rig ??= await rigWithCreate('cloud');
    const result = await rig.call('create_issue', { title: 'x', ...args });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(message);
  });

  it('refuses a Bug without the severity its project requires, before asking Jira', async () => {
    rig = await rigWithCreate('cloud');
    const result = await rig.call('create_issue', { title: 'x', type: 'Bug' });
    expect(text(result)).toContain(
      'Bug issues of PROJ require cf_severity ("Severity": one of Critical, High, Medium, Low)',
    );
    expect(rig.sent('POST', `${rig.api}/issue`)).toHaveLength(0);
    const given = await rig.call('create_issue', { title: 'x', type: 'Bug', cf_severity: 'Critical' });
    expect(given.isError, text(given)).toBeFalsy();
  });

  it('creates a sub-task under a standard parent, with the sub-task type by default', async () => {
    rig = await rigWithCreate('cloud');
    const result = await rig.call('create_issue', { title: 'Part', parent: 'proj-3' });
    expect(result.isError, text(result)).toBeFalsy();
    // The parent's type is read first: a Task, so the new issue is a sub-task.
    expect(rig.sent('GET', `${rig.api}/issue/PROJ-3`).map((r) => r.query)).toEqual([{ fields: 'issuetype' }]);
    expect(sentFields(rig)).toEqual({
      project: { key: 'PROJ' },
      issuetype: { name: 'Sub-task' },
      summary: 'Part',
      parent: { key: 'PROJ-3' },
    });
  });

  it('creates a standard issue under an epic parent: the default type, or the one named', async () => {
    rig = await rigWithCreate('cloud');
    rig.fake.route('GET', `${rig.api}/issue/PROJ-1`, {
      status: 200,
      body: jira.issue('cloud', 'PROJ-1', { issuetype: EPIC_CLOUD }),
    });
    const plain = await rig.call('create_issue', { title: 'Child', parent: 'PROJ-1' });
    expect(plain.isError, text(plain)).toBeFalsy();
    expect(rig.sent('GET', `${rig.api}/issue/PROJ-1`)[0]?.query).toEqual({ fields: 'issuetype' });
    expect(sentFields(rig)).toEqual({
      project: { key: 'PROJ' },
      issuetype: { name: 'Task' },
      summary: 'Child',
      parent: { key: 'PROJ-1' },
    });
    const bug = await rig.call('create_issue', {
      title: 'Child bug',
      parent: 'PROJ-1',
      type: 'Bug',
      cf_severity: 'Low',
    });
    expect(bug.isError, text(bug)).toBeFalsy();
    expect(sentFields(rig)).toMatchObject({ issuetype: { name: 'Bug' }, parent: { key: 'PROJ-1' } });
  });

  it('refuses a sub-task type under an epic, before creating anything', async () => {
    rig = await rigWithCreate('cloud');
    rig.fake.route('GET', `${rig.api}/issue/PROJ-1`, {
      status: 200,
      body: jira.issue('cloud', 'PROJ-1', { issuetype: EPIC_CLOUD }),
    });
    const withReview = {
      ...PROJ,
      types: [...PROJ.types, jira.issueType('10005', 'Review', true)],
      fields: { ...PROJ.fields, '10005': PROJ.fields['10003'] ?? [] },
    };
    await rig.close();
    rig = await rigWithCreate('cloud', [withReview]);
    rig.fake.route('GET', `${rig.api}/issue/PROJ-1`, {
      status: 200,
      body: jira.issue('cloud', 'PROJ-1', { issuetype: EPIC_CLOUD }),
    });
    // A project with several sub-task types lists them, so the agent may name one, and the enricher says why not.
    const result = await rig.call('create_issue', { title: 'x', parent: 'PROJ-1', type: 'Review' });
    expect(text(result)).toContain(
      'type: PROJ-1 is an epic, whose children are standard issues (Task, Bug), not a Review',
    );
    expect(rig.sent('POST', `${rig.api}/issue`)).toHaveLength(0);
  });

  it('takes the sub-task type named in type when the project has several', async () => {
    const withReview = {
      ...PROJ,
      types: [...PROJ.types, jira.issueType('10005', 'Review', true)],
      fields: { ...PROJ.fields, '10005': PROJ.fields['10003'] ?? [] },
    };
    rig = await rigWithCreate('cloud', [withReview]);
    const create = (await rig.tool('create_issue')).inputSchema.properties as Record<
      string,
      { enum?: unknown[]; description?: string }
    >;
    expect(create.type?.enum).toEqual(['Task', 'Bug', 'Sub-task', 'Review']);
    expect(create.type?.description).toContain(
      'under another issue, a sub-task of a sub-task type, which type may name: Sub-task, Review (default Sub-task)',
    );
    const result = await rig.call('create_issue', { title: 'Look', parent: 'PROJ-3', type: 'Review' });
    expect(result.isError, text(result)).toBeFalsy();
    expect(sentFields(rig)).toEqual({
      project: { key: 'PROJ' },
      issuetype: { name: 'Review' },
      summary: 'Look',
      parent: { key: 'PROJ-3' },
    });
  });

  it('passes a cf_ null through to clear the field', async () => {
    rig = await rigWithCreate('cloud');
    await rig.call('create_issue', { title: 'x', cf_severity: null });
    expect(sentFields(rig).customfield_10100).toBeNull();
  });
});

describe('create_issue on Jira Server / Data Center', () => {
  it('sends users by name, text as wiki markup, and the epic through Epic Link', async () => {
    rig = await rigWithCreate('server');
    const result = await rig.call('create_issue', {
      title: 'Crash',
      body: 'plain *text* and `code`',
      epic: 'PROJ-1',
      assignees: ['mia'],
      cf_reviewer: 'jdoe',
      cf_approvers: ['dee', 'Mia Krystof'],
      cf_notes: '## Notes\n\n- **one**',
      cf_severity: 'Critical',
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(sentFields(rig)).toMatchObject({
      description: 'plain _text_ and {{code}}',
      assignee: { name: 'mia' },
      customfield_10014: 'PROJ-1',
      customfield_10102: { name: 'jdoe' },
      customfield_10103: [{ name: 'dee' }, { name: 'mia' }],
      customfield_10108: 'h2. Notes\n\n* *one*',
      customfield_10100: { id: '1' },
    });
    expect(rig.sent('POST', '/rest/api/2/issue')[0]?.headers.authorization).toMatch(/^Bearer /);
  });
});

describe('create_issue under an epic on Server / Data Center', () => {
  it('links the epic through Epic Link instead of parent, with a standard type', async () => {
    rig = await rigWithCreate('server');
    // Server's issue types carry no hierarchy level: the epic is known by its name.
    const { hierarchyLevel: _level, ...epic } = jira.issueType('10000', 'Epic');
    rig.fake.route('GET', `${rig.api}/issue/PROJ-1`, {
      status: 200,
      body: jira.issue('server', 'PROJ-1', { issuetype: epic }),
    });
    const result = await rig.call('create_issue', { title: 'Child', parent: 'PROJ-1' });
    expect(result.isError, text(result)).toBeFalsy();
    expect(sentFields(rig)).toEqual({
      project: { key: 'PROJ' },
      issuetype: { name: 'Task' },
      summary: 'Child',
      customfield_10014: 'PROJ-1',
    });
  });
});

describe('create_issue on Server / Data Center, every kind', () => {
  it('sends the same formats as Cloud but users by name and text areas as wiki markup', async () => {
    rig = await rigWithCreate('server');
    const result = await rig.call('create_issue', { title: 'Crash', type: 'Bug', ...EVERY_KIND });
    expect(result.isError, text(result)).toBeFalsy();
    expect(sentFields(rig)).toEqual({
      project: { key: 'PROJ' },
      issuetype: { name: 'Bug' },
      summary: 'Crash',
      customfield_10100: { id: '2' },
      customfield_10101: [{ id: '11' }, { id: '13' }],
      customfield_10102: { name: 'mia' },
      customfield_10103: [{ name: 'dee' }, { name: 'jdoe' }],
      customfield_10104: 12.5,
      customfield_10105: '2024-05-01',
      customfield_10106: '2024-05-01T12:00:00.000+0000',
      customfield_10107: ['alpha', 'beta'],
      customfield_10108: '*Bold* note',
      customfield_10109: 'short',
      customfield_10110: 'https://docs.example.com/x',
      customfield_10111: { id: '21', child: { id: '23' } },
      customfield_10112: { id: '32' },
      customfield_10113: [{ id: '31' }],
      customfield_10114: { id: '41' },
      customfield_10115: { id: '52' },
    });
  });
});

describe('user values', () => {
  it('Cloud: resolves a display name or an email through user search, and takes an accountId as is', async () => {
    rig = await rigWithCreate('cloud');
    const result = await rig.call('create_issue', {
      title: 'x',
      assignees: ['mia krystof'],
      cf_reviewer: MIA,
      cf_approvers: ['dee@example.com'],
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(sentFields(rig)).toMatchObject({
      assignee: { accountId: MIA },
      customfield_10102: { accountId: MIA },
      customfield_10103: [{ accountId: DEE }],
    });
    // The accountId needed no search.
    expect(rig.sent('GET', `${rig.api}/user/search`).map((r) => r.query)).toEqual([
      { query: 'mia krystof', maxResults: '50' },
      { query: 'dee@example.com', maxResults: '50' },
    ]);
  });

  it('Server: resolves a display name or an email to the user name', async () => {
    rig = await rigWithCreate('server');
    const result = await rig.call('create_issue', {
      title: 'x',
      assignees: ['Dee Ek'],
      cf_reviewer: 'jdoe@example.com',
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(sentFields(rig)).toMatchObject({ assignee: { name: 'dee' }, customfield_10102: { name: 'jdoe' } });
    expect(rig.sent('GET', `${rig.api}/user/search`).map((r) => r.query)).toEqual([
      { username: 'Dee Ek', maxResults: '50' },
      { username: 'jdoe@example.com', maxResults: '50' },
    ]);
  });

  it('refuses a name that matches several users, listing them, and sends nothing', async () => {
    rig = await rigWithCreate('cloud');
    const result = await rig.call('update_issue', { key: 'PROJ-7', assignees: ['Alex Lee'] });
    expect(text(result)).toContain(
      'assignees: "Alex Lee" matches several users: Alex Lee (5b10a0effa615349cb016cd8, alex1@example.com); Alex Lee (5b10a0effa615349cb016cd9, alex2@example.com); give one\'s accountId',
    );
    expect(rig.sent('PUT', `${rig.api}/issue/PROJ-7`)).toHaveLength(0);
  });

  it('refuses a name that matches no user, with the users the search found', async () => {
    rig = await rigWithCreate('cloud');
    const none = await rig.call('create_issue', { title: 'x', cf_reviewer: 'Nobody' });
    expect(text(none)).toContain(
      'cf_reviewer: no user is "Nobody"; give an accountId, a display name or an email',
    );
    const partial = await rig.call('create_issue', { title: 'x', cf_reviewer: 'Dee' });
    expect(text(partial)).toContain(
      `cf_reviewer: no user is "Dee"; users found: Dee Ek (${DEE}, dee@example.com)`,
    );
    expect(rig.sent('POST', `${rig.api}/issue`)).toHaveLength(0);
  });
});

describe('update_issue with custom fields', () => {
  it('sends cf_ values of several kinds in the API format, and a cf_ null to clear', async () => {
    rig = await rigWithCreate('cloud');
    rig.fake.route('PUT', `${rig.api}/issue/PROJ-7`, { status: 204 });
    const result = await rig.call('update_issue', {
      key: 'PROJ-7',
      cf_severity: 'Critical',
      cf_platforms: ['Android'],
      cf_reviewer: MIA,
      cf_budget: 7,
      cf_go_live: '2024-05-01T12:00:00+02:00',
      cf_notes: 'a *b*',
      cf_region: 'Asia',
      cf_affected_builds: ['1.0', '2.0'],
      cf_launch_date: null,
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(rig.sent('PUT', `${rig.api}/issue/PROJ-7`).map((r) => r.body)).toEqual([
      {
        fields: {
          customfield_10100: { id: '1' },
          customfield_10101: [{ id: '12' }],
          customfield_10102: { accountId: MIA },
          customfield_10104: 7,
          customfield_10106: '2024-05-01T10:00:00.000+0000',
          customfield_10108: {
            type: 'doc',
            version: 1,
            content: [
              {
                type: 'paragraph',
                content: [
                  { type: 'text', text: 'a ' },
                  { type: 'text', text: 'b', marks: [{ type: 'em' }] },
                ],
              },
            ],
          },
          customfield_10111: { id: '24' },
          customfield_10113: [{ id: '31' }, { id: '32' }],
          customfield_10105: null,
        },
      },
    ]);
    // No status change: no transitions asked for.
    expect(rig.sent('GET', `${rig.api}/issue/PROJ-7/transitions`)).toHaveLength(0);
  });

  it('refuses a bad cf_ value on update before anything is sent', async () => {
    rig = await rigWithCreate('server');
    const result = await rig.call('update_issue', { key: 'PROJ-7', cf_platforms: ['Symbian'] });
    expect(text(result)).toContain(
      'parameter "cf_platforms.0" is "Symbian"; allowed: "iOS", "Android", "Web"',
    );
    expect(rig.sent('PUT', `${rig.api}/issue/PROJ-7`)).toHaveLength(0);
  });
});

// The seeds write story points as cf_story_points; the instance's field ("Story point estimate") is `points`.
describe('cf_story_points, as the seeds name story points', () => {
  it('is taken as points on create and update, and sent to the story points field', async () => {
    rig = await rigWithCreate('cloud');
    rig.fake.route('PUT', `${rig.api}/issue/PROJ-7`, { status: 204 });
    const created = await rig.call('create_issue', { title: 'Estimate me', cf_story_points: 5 });
    expect(created.isError, text(created)).toBeFalsy();
    expect(sentFields(rig).customfield_10016).toBe(5);
    const updated = await rig.call('update_issue', { key: 'PROJ-7', cf_story_points: 8, points: 8 });
    expect(updated.isError, text(updated)).toBeFalsy();
    expect(rig.sent('PUT', `${rig.api}/issue/PROJ-7`).map((r) => r.body)).toEqual([
      { fields: { customfield_10016: 8 } },
    ]);
  });

  it('refuses two different values for the one field, before anything is sent', async () => {
    rig = await rigWithCreate('cloud');
    const result = await rig.call('create_issue', { title: 'x', points: 3, cf_story_points: 5 });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(
      'cf_story_points is another name for points, which says 3: give one of them',
    );
    expect(rig.sent('POST', `${rig.api}/issue`)).toHaveLength(0);
  });

  it('is checked as points is, a number, and the error names the parameter the agent sent', async () => {
    rig = await rigWithCreate('cloud');
    const result = await rig.call('create_issue', { title: 'x', cf_story_points: 'five' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('parameter "cf_story_points" must be number (got "five")');
    expect(rig.sent('POST', `${rig.api}/issue`)).toHaveLength(0);
  });
});

describe('create_issue with several projects', () => {
  it('requires projectId and never picks a project', async () => {
    rig = await rigWithCreate('cloud', [PROJ, OPS]);
    const result = await rig.call('create_issue', { title: 'x' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/projectId/);
    expect(rig.sent('POST', `${rig.api}/issue`)).toHaveLength(0);
  });

  it("checks a merged cf_ value against the chosen project's own field", async () => {
    rig = await rigWithCreate('cloud', [PROJ, OPS]);
    const wrong = await rig.call('create_issue', {
      title: 'x',
      projectId: 'OPS',
      type: 'Incident',
      cf_severity: 'High',
    });
    expect(text(wrong)).toContain('cf_severity: "High" is not one of Sev1, Sev2');
    const right = await rig.call('create_issue', {
      title: 'x',
      projectId: 'OPS',
      type: 'Incident',
      cf_severity: 'Sev2',
    });
    expect(right.isError, text(right)).toBeFalsy();
    expect(sentFields(rig)).toEqual({
      project: { key: 'OPS' },
      issuetype: { name: 'Incident' },
      summary: 'x',
      customfield_10200: { id: '62' },
    });
  });

  it('refuses a cf_ parameter the chosen project lacks, naming the projects that have it', async () => {
    rig = await rigWithCreate('cloud', [PROJ, OPS]);
    const result = await rig.call('create_issue', { title: 'x', projectId: 'OPS', cf_platforms: ['iOS'] });
    expect(text(result)).toContain('cf_platforms: project OPS has no field "Platforms"; it is in PROJ');
  });
});
