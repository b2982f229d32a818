// The jira enricher's schemas: one project (projectId gone, typed cf_ parameters), several (projectId a required enum,
// same-named fields merged), and the generic schemas when the metadata cannot be loaded.
import { afterEach, describe, expect, it } from 'vitest';
import { OPS, PROJ } from './support/fake-jira-metadata.js';
import { type JiraRig, startJiraRig } from './support/fake-jira-harness.js';

let rig: JiraRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Props = Record<string, Record<string, unknown>>;
const props = async (r: JiraRig, tool: string) => (await r.tool(tool)).inputSchema.properties as Props;

describe('jira schemas, one project', () => {
  it('drops projectId and customFields, and gives enums from the project', async () => {
    rig = await startJiraRig();
    const create = await props(rig, 'create_issue');
    expect(create.projectId).toBeUndefined();
    expect(create.customFields).toBeUndefined();
    expect(create.milestone).toMatchObject({ enum: ['1.0', '2.0'], description: 'fix version name' });
    expect(create.status).toBeUndefined();
    // Sub-task types are not top-level issues: under a parent the plugin picks the type from the parent's.
    expect(create.type?.enum).toEqual(['Task', 'Bug']);
    expect(create.type?.description).toBe(
      "issue type: Task, Bug (default Task). With parent, the parent's type decides: under an epic, one of these (default Task); under another issue, a sub-task (Sub-task)",
    );
    // The words the enricher maps are listed too: the agent is held to what it is shown.
    expect(create.priority?.enum).toEqual([
      'Highest',
      'High',
      'Medium',
      'Low',
      'Lowest',
      'urgent',
      'high',
      'normal',
      'low',
    ]);
    expect(create.priority?.description).toMatch(/urgent, high, normal, low/);
    expect((create.components?.items as { enum: string[] }).enum).toEqual(['Backend', 'Frontend']);
    expect(create.points).toBeDefined();
    expect(create.sprint).toBeDefined();
    const update = await props(rig, 'update_issue');
    expect(update.status?.enum).toEqual(['To Do', 'In Progress', 'Done']);
    expect(update.type?.enum).toEqual(['Task', 'Bug', 'Sub-task']);
    expect(update.milestone?.enum).toEqual(['1.0', '2.0', '']);
    const issues = await props(rig, 'get_issues');
    expect(issues.projectId).toBeUndefined();
    expect((issues.statuses?.items as { enum: string[] }).enum).toEqual(['To Do', 'In Progress', 'Done']);
    expect(issues.query).toBeDefined();
    expect(issues.state).toEqual({
      type: 'string',
      enum: ['open', 'closed', 'all'],
      description: 'which issues, by status category (default open; with query, all unless given)',
    });
  });

  it('types each custom field by its kind, under an ASCII-safe name', async () => {
    rig = await startJiraRig();
    const create = await props(rig, 'create_issue');
    const cf = Object.fromEntries(Object.entries(create).filter(([name]) => name.startsWith('cf_')));
    expect(Object.keys(cf).sort()).toEqual(
      [
        'cf_affected_builds',
        'cf_approvers',
        'cf_budget',
        'cf_docs',
        'cf_go_live',
        'cf_launch_date',
        'cf_notes',
        'cf_platforms',
        'cf_prioritet_klienta',
        'cf_region',
        'cf_reviewer',
        'cf_severity',
        'cf_short_note',
        // Not a custom field: the seeds' name for story points, which the plugin serves as points.
        'cf_story_points',
        'cf_tags',
        'cf_target_version',
        'cf_u4f18_u5148_u7ea7',
      ].sort(),
    );
    // Every cf_ parameter takes null, which clears the field.
    expect(cf.cf_severity).toMatchObject({
      type: ['string', 'null'],
      enum: ['Critical', 'High', 'Medium', 'Low', null],
    });
    expect(cf.cf_severity?.description).toMatch(/"Severity" \(customfield_10100\).*required for Bug/);
    expect(cf.cf_platforms).toMatchObject({
      type: ['array', 'null'],
      items: { enum: ['iOS', 'Android', 'Web'] },
    });
    expect(cf.cf_reviewer).toMatchObject({ type: ['string', 'null'] });
    expect(cf.cf_approvers).toMatchObject({ type: ['array', 'null'], items: { type: 'string' } });
    expect(cf.cf_budget).toMatchObject({ type: ['number', 'null'] });
    expect(cf.cf_launch_date).toMatchObject({ type: ['string', 'null'], format: 'date' });
    expect(cf.cf_go_live).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
    expect(cf.cf_tags).toMatchObject({ type: ['array', 'null'], items: { type: 'string' } });
    expect(cf.cf_docs).toMatchObject({ type: ['string', 'null'], format: 'uri' });
    expect(cf.cf_short_note).toMatchObject({ type: ['string', 'null'], maxLength: 255 });
    expect(cf.cf_region?.enum).toEqual([
      'Europe',
      'Europe > Germany',
      'Europe > France',
      'Asia',
      'Asia > Japan',
      null,
    ]);
    expect(cf.cf_target_version?.enum).toEqual(['1.0', '2.0', null]);
    expect(cf.cf_affected_builds).toMatchObject({ type: ['array', 'null'], items: { enum: ['1.0', '2.0'] } });
    expect(cf.cf_prioritet_klienta?.enum).toEqual(['Высокий', 'Низкий', null]);
    expect(cf.cf_prioritet_klienta?.description).toMatch(/"Приоритет клиента"/);
    expect(cf.cf_u4f18_u5148_u7ea7?.enum).toEqual(['高', '低', null]);
    for (const name of Object.keys(create)) expect(name).toMatch(/^[A-Za-z0-9_]{1,64}$/);
  });

  it('offers the site link words, which say the direction', async () => {
    rig = await startJiraRig();
    const link = await props(rig, 'link_issues');
    expect(link.link_type?.enum).toEqual([
      'blocks',
      'is blocked by',
      'relates to',
      'duplicates',
      'is duplicated by',
    ]);
    expect(link.link_type?.default).toBe('relates to');
  });
});

describe('jira schemas, several projects', () => {
  it('makes projectId a required enum of create_issue and an optional filter of get_issues', async () => {
    rig = await startJiraRig({ projects: [PROJ, OPS] });
    const create = await rig.tool('create_issue');
    const properties = create.inputSchema.properties as Props;
    expect(properties.projectId?.enum).toEqual(['PROJ', 'OPS']);
    expect(create.inputSchema.required).toContain('projectId');
    const issues = await rig.tool('get_issues');
    expect((issues.inputSchema.properties as Props).projectId?.enum).toEqual(['PROJ', 'OPS']);
    expect(issues.inputSchema.required ?? []).not.toContain('projectId');
    expect(properties.type?.enum).toEqual(['Task', 'Bug', 'Incident']);
  });

  it('merges same-named fields of the same kind, and keeps a same-named field of another kind apart', async () => {
    rig = await startJiraRig({ projects: [PROJ, OPS] });
    const create = await props(rig, 'create_issue');
    expect(create.cf_severity?.enum).toEqual(['Critical', 'High', 'Medium', 'Low', 'Sev1', 'Sev2', null]);
    expect(create.cf_severity?.description).toMatch(
      /customfield_10100, customfield_10200.*in projects PROJ, OPS/,
    );
    const budgets = Object.keys(create).filter((name) => name.startsWith('cf_budget'));
    expect(budgets).toHaveLength(2);
    expect(budgets.map((name) => (create[name]?.type as string[])[0]).sort()).toEqual(['number', 'string']);
    expect(budgets.every((name) => /^cf_budget_[0-9a-f]{6}$/.test(name))).toBe(true);
    const textBudget = budgets.find((name) => (create[name]?.type as string[])[0] === 'string') ?? '';
    expect(create[textBudget]?.description).toMatch(/in project OPS/);
  });
});

describe('jira schemas without metadata', () => {
  it('keeps the generic parameters and says why in each description', async () => {
    rig = await startJiraRig({ metadata: false });
    await expect
      .poll(async () => (await rig?.tool('create_issue'))?.description, { timeout: 5000, interval: 10 })
      .toMatch(/metadata could not be loaded \(the priority list was not found on Jira Cloud/);
    const create = await props(rig, 'create_issue');
    expect(create.customFields?.description).toMatch(/by field id \("customfield_10042"\)/);
    expect(create.type?.enum).toBeUndefined();
    expect(Object.keys(create).some((name) => name.startsWith('cf_'))).toBe(false);
  });

  it('still asks which project with several, and never picks one', async () => {
    rig = await startJiraRig({ metadata: false, projects: [PROJ, OPS] });
    const create = await rig.tool('create_issue');
    expect((create.inputSchema.properties as Props).projectId?.enum).toEqual(['PROJ', 'OPS']);
    expect(create.inputSchema.required).toContain('projectId');
    const result = await rig.call('create_issue', { title: 'x' });
    expect(result.isError).toBe(true);
    expect(rig.sent('POST', '/rest/api/3/issue')).toHaveLength(0);
  });
});
