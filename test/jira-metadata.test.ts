// The jira plugin's project metadata over time: a change found on reload rebuilds the schemas and tells the client
// (notifications/tools/list_changed); an unchanged reload tells nobody; a failed first load serves generic schemas
// that say so, until a later load succeeds.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jira } from './support/fake-jira.js';
import { OPS, PROJ, PROJ_CUSTOM, routeMetadata } from './support/fake-jira-metadata.js';
import { type JiraRig, startJiraRig, structured, text } from './support/fake-jira-harness.js';

let rig: JiraRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Props = Record<string, { enum?: unknown[]; description?: string } | undefined>;
const severity = async (r: JiraRig) =>
  ((await r.tool('create_issue')).inputSchema.properties as Props).cf_severity;

function listChanged(r: JiraRig): { count: () => number; next: Promise<void> } {
  let count = 0;
  let resolve = () => {};
  const next = new Promise<void>((done) => (resolve = done));
  r.client.setNotificationHandler('notifications/tools/list_changed', () => {
    count++;
    resolve();
  });
  return { count: () => count, next };
}

/** PROJ with a new first option, Blocker, in the Severity field. */
const withBlocker = () => ({
  ...PROJ,
  fields: {
    ...PROJ.fields,
    '10001':
      PROJ.fields['10001']?.map((f) =>
        (f as { fieldId: string }).fieldId === 'customfield_10100'
          ? {
              ...(f as object),
              allowedValues: [
                jira.option('0', 'Blocker'),
                ...((PROJ_CUSTOM[0]?.allowedValues ?? []) as unknown[]),
              ],
            }
          : f,
      ) ?? [],
  },
});

describe('jira metadata refresh', () => {
  it('rebuilds the schemas and sends list_changed when a reload finds a new option', async () => {
    rig = await startJiraRig({ metadataTtlMs: 100 });
    expect((await severity(rig))?.enum).toEqual(['Critical', 'High', 'Medium', 'Low', null]);
    const changed = listChanged(rig);
    routeMetadata(rig.fake, 'cloud', [withBlocker()]);
    await changed.next;
    expect((await severity(rig))?.enum).toEqual(['Blocker', 'Critical', 'High', 'Medium', 'Low', null]);
    const result = await rig.call('create_issue', { title: 'x', cf_severity: 'Hgh' });
    expect(text(result)).toContain(
      'parameter "cf_severity" is "Hgh"; allowed: "Blocker", "Critical", "High", "Medium", "Low", null',
    );
  });

  it('get_custom_fields with refresh reloads the metadata now; the schemas and the client follow', async () => {
    const r = await startJiraRig();
    rig = r;
    const changed = listChanged(r);
    const options = async (args: Record<string, unknown>) =>
      (
        structured(await r.call('get_custom_fields', args)) as {
          items: { id: string; options?: string[] }[];
        }
      ).items.find((field) => field.id === 'customfield_10100')?.options;
    routeMetadata(r.fake, 'cloud', [withBlocker()]);
    // The TTL is minutes away: without refresh the last load stands.
    expect(await options({})).toEqual(['Critical', 'High', 'Medium', 'Low']);
    expect(await options({ refresh: true })).toEqual(['Blocker', 'Critical', 'High', 'Medium', 'Low']);
    await changed.next;
    expect((await severity(r))?.enum).toEqual(['Blocker', 'Critical', 'High', 'Medium', 'Low', null]);
  });

  it('serves calls while the first load is still running, then lists the enriched tools and tells the client', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const r = await startJiraRig({ metadata: { gate } });
    rig = r;
    const changed = listChanged(r);
    // The server answers at once: generic schemas that say the metadata is still loading.
    const generic = await r.tool('create_issue');
    expect(generic.description).toContain('Jira project metadata still loading');
    expect(Object.keys(generic.inputSchema.properties ?? {})).toContain('customFields');
    expect(await severity(r)).toBeUndefined();
    release();
    await changed.next;
    expect((await severity(r))?.enum).toEqual(['Critical', 'High', 'Medium', 'Low', null]);
  });

  it('sends nothing when a reload finds the same metadata', async () => {
    rig = await startJiraRig({ metadataTtlMs: 50 });
    const changed = listChanged(rig);
    const loads = () => rig?.sent('GET', '/rest/api/3/priority').length ?? 0;
    const before = loads();
    await vi.waitFor(() => expect(loads()).toBeGreaterThanOrEqual(before + 2), {
      timeout: 5000,
      interval: 20,
    });
    expect(changed.count()).toBe(0);
  });

  it('reads create metadata from the legacy endpoint on Server before 8.4', async () => {
    rig = await startJiraRig({ flavor: 'server', metadata: { legacy: true } });
    const properties = (await rig.tool('create_issue')).inputSchema.properties as Props;
    expect(properties.cf_severity?.enum).toEqual(['Critical', 'High', 'Medium', 'Low', null]);
    expect(properties.cf_severity?.description).toMatch(/required for Bug/);
    expect((properties.type as { enum?: unknown[] }).enum).toEqual(['Task', 'Bug']);
    expect(rig.sent('GET', '/rest/api/2/issue/createmeta')[0]?.query).toEqual({
      projectKeys: 'PROJ',
      expand: 'projects.issuetypes.fields',
    });
  });

  it.each([
    ['Cloud, fields under `fields`', 'cloud', 'fields'],
    ['Cloud, fields under `results`', 'cloud', 'results'],
    ['Server / Data Center 8.4+, `values` with isLast', 'server', 'fields'],
  ] as const)('reads create metadata that spans several pages (%s)', async (_what, flavor, fieldsKey) => {
    // The site serves at most 10 items a page, whatever maxResults asks for.
    rig = await startJiraRig({ flavor, metadata: { fieldsKey, maxPage: 10 } });
    const api = rig.api;
    const starts = (path: string) =>
      rig?.sent('GET', `${api}/issue/createmeta/PROJ/issuetypes${path}`).map((r) => r.query) ?? [];
    expect(starts('')).toEqual([{ startAt: '0', maxResults: '100' }]);
    // Task has 11 system fields and 16 custom ones: three pages of at most 10.
    expect(starts('/10001')).toEqual([
      { startAt: '0', maxResults: '100' },
      { startAt: '10', maxResults: '100' },
      { startAt: '20', maxResults: '100' },
    ]);
    const properties = (await rig.tool('create_issue')).inputSchema.properties as Props;
    // The first custom field (page one) and the last (page three) are both there.
    expect(properties.cf_severity?.enum).toEqual(['Critical', 'High', 'Medium', 'Low', null]);
    expect(properties.cf_u4f18_u5148_u7ea7?.enum).toEqual(['高', '低', null]);
    // 16 custom fields, and the seeds' name for story points.
    expect(Object.keys(properties).filter((name) => name.startsWith('cf_'))).toHaveLength(17);
    expect(properties.cf_story_points).toBeDefined();
  });

  it('reads issue types that span several pages', async () => {
    rig = await startJiraRig({ metadata: { maxPage: 2 } });
    expect(
      rig.sent('GET', '/rest/api/3/issue/createmeta/PROJ/issuetypes').map((r) => r.query.startAt),
    ).toEqual(['0', '2']);
    // The third issue type (Sub-task, page two) had its fields read too.
    expect(rig.sent('GET', '/rest/api/3/issue/createmeta/PROJ/issuetypes/10003')).not.toHaveLength(0);
    const properties = (await rig.tool('get_issues')).inputSchema.properties as Props;
    expect((properties.type as { enum?: unknown[] }).enum).toEqual(['Task', 'Bug', 'Sub-task']);
  });

  it('serves generic schemas that say why while loading fails, then the enriched ones once it succeeds', async () => {
    rig = await startJiraRig({ metadata: false, metadataTtlMs: 100 });
    await vi.waitFor(
      async () => expect((await rig?.tool('get_issues'))?.description).toMatch(/could not be loaded/),
      {
        timeout: 5000,
        interval: 10,
      },
    );
    // The tools still work without metadata: custom fields by id, in the API's own format.
    rig.fake.route('POST', '/rest/api/3/issue', { status: 201, body: { id: '1', key: 'PROJ-1', self: '' } });
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-1', { status: 200, body: jira.issue('cloud', 'PROJ-1') });
    const created = await rig.call('create_issue', {
      title: 'x',
      customFields: { customfield_10100: { id: '2' } },
    });
    expect(created.isError, text(created)).toBeFalsy();
    expect(rig.sent('POST', '/rest/api/3/issue')[0]?.body).toEqual({
      fields: {
        project: { key: 'PROJ' },
        issuetype: { name: 'Task' },
        summary: 'x',
        customfield_10100: { id: '2' },
      },
    });
    const changed = listChanged(rig);
    routeMetadata(rig.fake, 'cloud', [PROJ]);
    await changed.next;
    const tool = await rig.tool('create_issue');
    expect(tool.description).not.toMatch(/could not be loaded/);
    expect((tool.inputSchema.properties as Props).cf_severity).toBeDefined();
  });

  it("keeps the other projects' schemas when one project's metadata fails, and says which", async () => {
    rig = await startJiraRig({
      projects: [PROJ, OPS],
      noWait: true,
      routes: (fake) =>
        fake.route('GET', '/rest/api/3/issue/createmeta/OPS/issuetypes', {
          status: 403,
          body: {
            errorMessages: ['You do not have permission to create issues in this project.'],
            errors: {},
          },
        }),
    });
    await vi.waitFor(
      async () => expect((await rig?.tool('create_issue'))?.description).toMatch(/Metadata of OPS/),
      {
        timeout: 5000,
        interval: 10,
      },
    );
    const create = await rig.tool('create_issue');
    expect(create.description).toMatch(/Metadata of OPS \(.*403.*\) could not be loaded/);
    const properties = create.inputSchema.properties as Props;
    expect(properties.cf_severity?.enum).toEqual(['Critical', 'High', 'Medium', 'Low', null]);
    expect(properties.customFields?.description).toMatch(/custom fields of OPS by field id/);
    const refused = await rig.call('create_issue', { title: 'x', projectId: 'OPS', cf_severity: 'High' });
    expect(text(refused)).toMatch(
      /cf_severity: the metadata of OPS could not be loaded .*give its custom fields in customFields/,
    );
    rig.fake.route('POST', '/rest/api/3/issue', { status: 201, body: { id: '1', key: 'OPS-1', self: '' } });
    rig.fake.route('GET', '/rest/api/3/issue/OPS-1', { status: 200, body: jira.issue('cloud', 'OPS-1') });
    const created = await rig.call('create_issue', {
      title: 'x',
      projectId: 'OPS',
      customFields: { customfield_10200: { id: '61' } },
    });
    expect(created.isError, text(created)).toBeFalsy();
    expect(rig.sent('POST', '/rest/api/3/issue')[0]?.body).toEqual({
      fields: {
        project: { key: 'OPS' },
        issuetype: { name: 'Task' },
        summary: 'x',
        customfield_10200: { id: '61' },
      },
    });
  });

  it('reloads the metadata when Jira refuses a write, so the next schemas are current', async () => {
    rig = await startJiraRig();
    rig.fake.route('POST', '/rest/api/3/issue', {
      status: 400,
      body: { errorMessages: [], errors: { customfield_10100: "Option id '2' is not valid" } },
    });
    const loads = rig.sent('GET', '/rest/api/3/priority').length;
    const result = await rig.call('create_issue', { title: 'x', cf_severity: 'High' });
    expect(text(result)).toContain("cf_severity (customfield_10100): Option id '2' is not valid");
    await vi.waitFor(() => expect(rig?.sent('GET', '/rest/api/3/priority').length).toBe(loads + 1), {
      timeout: 5000,
      interval: 10,
    });
  });
});
