// The lists' metadata over time: its arrival and any change found on reload rebuild the schemas and tell the
// client (notifications/tools/list_changed); an unchanged reload tells nobody; a failed first load serves
// generic schemas that say so, until a later load succeeds.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FIELDS,
  LIST_ID,
  MEMBERS,
  OTHER_LIST_ID,
  TEAM_ID,
  dropDownOption,
  field,
  member,
} from './support/fake-clickup-bodies.js';
import {
  type ClickUpRig,
  isListMetadata,
  routeMetadata,
  startClickUpRig,
  text,
} from './support/fake-clickup.js';

let rig: ClickUpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function listChanged(r: ClickUpRig) {
  const handler = vi.fn();
  r.client.setNotificationHandler('notifications/tools/list_changed', handler);
  return handler;
}

const severity = async (r: ClickUpRig) => (await r.schemas()).get('create_issue')?.cf_severity;

describe('clickup metadata', () => {
  it('turns the fields into parameters once they load, and tells the client', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    rig = await startClickUpRig({ gate });
    const changed = listChanged(rig);
    expect(await severity(rig)).toBeUndefined();
    release();
    await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 5000, interval: 10 });
    expect((await severity(rig))?.enum).toEqual(['Critical', 'High', 'Medium', 'Low']);
  });

  it('rebuilds the schemas and sends list_changed when a reload finds a new option', async () => {
    rig = await startClickUpRig({ metadataTtlMs: 100 });
    await rig.metadataLoaded();
    const changed = listChanged(rig);
    const options = [
      dropDownOption('opt-block', 'Blocker', 0),
      ...((FIELDS.severity.type_config as { options?: unknown[] }).options ?? []),
    ];
    routeMetadata(rig.fake, [
      { id: LIST_ID, name: 'Backlog', fields: [field('f-sev', 'Severity', 'drop_down', { options })] },
    ]);
    await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 5000, interval: 10 });
    expect((await severity(rig))?.enum).toEqual(['Blocker', 'Critical', 'High', 'Medium', 'Low']);
    const result = await rig.call('create_issue', { title: 'x', cf_severity: 'Hgh' });
    expect(text(result)).toContain(
      'parameter "cf_severity" is "Hgh"; allowed: "Blocker", "Critical", "High", "Medium", "Low"',
    );
  });

  it('get_custom_fields with refresh reloads the metadata now; the schemas and the client follow', async () => {
    rig = await startClickUpRig();
    await rig.metadataLoaded();
    const changed = listChanged(rig);
    const options = [
      dropDownOption('opt-block', 'Blocker', 0),
      ...((FIELDS.severity.type_config as { options?: unknown[] }).options ?? []),
    ];
    routeMetadata(rig.fake, [
      { id: LIST_ID, name: 'Backlog', fields: [field('f-sev', 'Severity', 'drop_down', { options })] },
    ]);
    const severityOptions = async (args: Record<string, unknown>) =>
      (
        (await rig?.call('get_custom_fields', args))?.structuredContent as {
          items: { id: string; options?: string[] }[];
        }
      ).items.find((entry) => entry.id === 'f-sev')?.options;
    // The TTL is minutes away: without refresh the last load stands.
    expect(await severityOptions({})).toEqual(['Critical', 'High', 'Medium', 'Low']);
    expect(await severityOptions({ refresh: true })).toEqual([
      'Blocker',
      'Critical',
      'High',
      'Medium',
      'Low',
    ]);
    await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 5000, interval: 10 });
    expect((await severity(rig))?.enum).toEqual(['Blocker', 'Critical', 'High', 'Medium', 'Low']);
  });

  it('sends nothing when a reload finds the same metadata', async () => {
    rig = await startClickUpRig({ metadataTtlMs: 50 });
    await rig.metadataLoaded();
    const changed = listChanged(rig);
    const loads = () => rig?.fake.sent('GET', `/list/${LIST_ID}/field`).length ?? 0;
    const before = loads();
    await vi.waitFor(() => expect(loads()).toBeGreaterThanOrEqual(before + 2), {
      timeout: 5000,
      interval: 20,
    });
    expect(changed).not.toHaveBeenCalled();
  });

  it('serves generic schemas that say why while loading fails, then the enriched ones', async () => {
    rig = await startClickUpRig({ lists: false, metadataTtlMs: 100, unmatched: isListMetadata });
    const description = async () =>
      (await rig?.client.listTools())?.tools.find((t) => t.name === 'clickup__get_issues')?.description;
    await vi.waitFor(
      async () =>
        expect(await description()).toMatch(
          /metadata is not loaded yet \(list 901234567 was not found on ClickUp\)/,
        ),
      {
        timeout: 5000,
        interval: 10,
      },
    );
    // Tools still work meanwhile.
    rig.fake.route('GET', '/task/:id', {
      status: 200,
      body: { id: '86a', name: 'A', status: { status: 'to do', type: 'open' } },
    });
    expect((await rig.call('get_issue', { key: '86a' })).isError).toBeFalsy();
    const changed = listChanged(rig);
    routeMetadata(rig.fake, [{ id: LIST_ID, name: 'Backlog' }]);
    await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 5000, interval: 10 });
    expect(await description()).not.toMatch(/not loaded/);
    expect((await severity(rig))?.enum).toBeDefined();
  });

  it('get_users, get_custom_fields and get_available_statuses answer from the metadata', async () => {
    rig = await startClickUpRig();
    await rig.metadataLoaded();
    const users = await rig.call('get_users', { search: 'bo' });
    expect(users.structuredContent).toEqual({
      kind: 'user_list',
      items: [{ id: '184', name: 'Bo Chen', email: 'bo chen@example.com' }],
      page: { offset: 0, limit: 20, total: 1 },
    });
    const fields = (await rig.call('get_custom_fields')).structuredContent as {
      items: Record<string, unknown>[];
    };
    expect(fields.items).toContainEqual({
      id: 'f-sev',
      name: 'Severity',
      type: 'option',
      param: 'cf_severity',
      options: ['Critical', 'High', 'Medium', 'Low'],
    });
    expect(fields.items).toContainEqual({
      id: 'f-ru',
      name: 'Приоритет',
      type: 'option',
      param: 'cf_prioritet',
      options: ['Высокий', 'Низкий'],
    });
    const statuses = await rig.call('get_available_statuses');
    expect(statuses.structuredContent).toEqual({
      kind: 'status_list',
      items: [
        { name: 'to do', category: 'todo' },
        { name: 'in progress', category: 'in_progress' },
        { name: 'review', category: 'in_progress' },
        { name: 'complete', category: 'done' },
      ],
    });
  });

  it('while the metadata is missing, each metadata tool reads only what it needs, and never reloads it all', async () => {
    rig = await startClickUpRig({ lists: false, unmatched: isListMetadata, options: { team_id: TEAM_ID } });
    await vi.waitFor(() =>
      expect(rig?.logs.some((l) => String(l.msg).includes('schemas stay generic'))).toBe(true),
    );
    routeMetadata(rig.fake, [{ id: LIST_ID, name: 'Backlog' }]);
    const since = rig.fake.requests.length;
    const sentSince = () => rig?.fake.requests.slice(since).map((r) => `${r.method} ${r.path}`);
    const fields = (await rig.call('get_custom_fields')).structuredContent as { items: { param: string }[] };
    expect(fields.items.map((f) => f.param)).toContain('cf_severity');
    expect(sentSince()).toEqual([`GET /api/v2/list/${LIST_ID}/field`]);
    const statuses = (await rig.call('get_available_statuses')).structuredContent as {
      items: { name: string }[];
    };
    expect(statuses.items.map((s) => s.name)).toEqual(['to do', 'in progress', 'review', 'complete']);
    const users = (await rig.call('get_users', { search: 'cy' })).structuredContent as {
      items: { name: string }[];
    };
    expect(users.items.map((u) => u.name)).toEqual(['Cy Diaz']);
    await rig.call('get_custom_fields');
    expect(sentSince()).toEqual([
      `GET /api/v2/list/${LIST_ID}/field`,
      `GET /api/v2/list/${LIST_ID}`,
      'GET /api/v2/team',
      `GET /api/v2/list/${LIST_ID}/member`,
      `GET /api/v2/list/${LIST_ID}/field`,
    ]);
  });

  it("while the metadata is missing, a metadata tool's read ends with its call's deadline", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    rig = await startClickUpRig({ lists: false, unmatched: isListMetadata, deadlines: { callTool: 300 } });
    await vi.waitFor(() =>
      expect(rig?.logs.some((l) => String(l.msg).includes('schemas stay generic'))).toBe(true),
    );
    rig.fake.route('GET', `/list/${LIST_ID}/field`, async () => {
      await held;
      return { status: 200, body: { fields: [] } };
    });
    const result = await rig.call('get_custom_fields');
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/300 ?ms/);
    await vi.waitFor(() =>
      expect(rig?.fake.abandoned.map((r) => r.path)).toContain(`/api/v2/list/${LIST_ID}/field`),
    );
    release();
  });

  it('keeps the lists that loaded when one fails, says which, and keeps that one generic', async () => {
    rig = await startClickUpRig({
      lists: [
        { id: LIST_ID, name: 'Backlog', fields: [FIELDS.severity] },
        { id: OTHER_LIST_ID, name: 'Ops' },
      ],
    });
    const r = rig;
    r.fake.route('GET', `/list/${OTHER_LIST_ID}/field`, {
      status: 500,
      body: { err: 'Internal error', ECODE: 'APP_500' },
    });
    await vi.waitFor(async () => expect((await severity(r))?.enum).toBeDefined(), {
      timeout: 5000,
      interval: 10,
    });
    const { tools } = await r.client.listTools();
    const create = tools.find((t) => t.name === 'clickup__create_issue');
    expect(create?.description).toMatch(
      new RegExp(`ClickUp list ${OTHER_LIST_ID} \\(.*500.*\\) could not be loaded: statuses are not listed`),
    );
    const properties = create?.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(properties.list?.enum).toEqual(['Backlog', LIST_ID, OTHER_LIST_ID]);
    // Ops' statuses are unknown: an enum of Backlog's would refuse them.
    expect(properties.status).not.toHaveProperty('enum');
    const refused = await r.call('create_issue', { title: 'x', list: OTHER_LIST_ID, cf_severity: 'High' });
    expect(text(refused)).toContain(
      `cf_severity: the custom fields of list ${OTHER_LIST_ID} could not be loaded`,
    );
    expect(r.fake.sent('POST', `/list/${OTHER_LIST_ID}/task`)).toHaveLength(0);
    // foresight tools / check show the same: which list has no metadata, and why.
    const health = r.connected.host.plugins.mountedPlugins()[0]?.health;
    expect(health?.state).toBe('degraded');
    expect(health?.detail).toMatch(
      new RegExp(`no metadata for ${OTHER_LIST_ID} \\(.*500.*\\); those stay generic`),
    );
  });

  it('says it is starting while the first load runs, then names the lists it serves', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const r = await startClickUpRig({ gate });
    rig = r;
    const health = () => r.connected.host.plugins.mountedPlugins()[0]?.health;
    expect(health()).toEqual({
      state: 'starting',
      detail: `ClickUp lists ${LIST_ID}: loading their statuses and custom fields`,
    });
    release();
    await vi.waitFor(() => expect(health()?.state).toBe('ready'), { timeout: 5000, interval: 10 });
    expect(health()?.detail).toBe(`ClickUp lists ${LIST_ID}: Backlog`);
  });

  it("loads the lists one after another, never two lists' reads at once", async () => {
    // A slow server: each fields read takes 50 ms, and the peak of those in flight together is counted.
    let inFlight = 0;
    let peak = 0;
    const slowFields = {
      then(resolve: () => void) {
        peak = Math.max(peak, ++inFlight);
        setTimeout(() => {
          inFlight--;
          resolve();
        }, 50);
      },
    } as unknown as Promise<void>;
    const ids = [LIST_ID, OTHER_LIST_ID, '901235001', '901235002'];
    rig = await startClickUpRig({ lists: ids.map((id, i) => ({ id, name: `List ${i}` })), gate: slowFields });
    await rig.metadataLoaded();
    expect(peak).toBe(1);
    expect(rig.fake.requests.filter((r) => r.path.endsWith('/field'))).toHaveLength(4);
  });

  it('get_users lists the whole workspace when team_id is set', async () => {
    rig = await startClickUpRig({ options: { team_id: TEAM_ID } });
    await rig.metadataLoaded();
    const users = (await rig.call('get_users')).structuredContent as { items: { name: string }[] };
    expect(users.items.map((user) => user.name)).toEqual(['Ann Lee', 'Bo Chen', 'Cy Diaz']);
    expect(rig.fake.sent('GET', '/team')).toHaveLength(1);
  });

  it('sends nothing when only the members change (no schema shows them), yet get_users sees the new one', async () => {
    rig = await startClickUpRig({ metadataTtlMs: 50 });
    await rig.metadataLoaded();
    const changed = listChanged(rig);
    routeMetadata(rig.fake, [{ id: LIST_ID, name: 'Backlog', members: [...MEMBERS, member(190, 'Dee Ek')] }]);
    await vi.waitFor(
      async () => {
        const users = (await rig?.call('get_users'))?.structuredContent as { items: { name: string }[] };
        expect(users.items.map((user) => user.name)).toContain('Dee Ek');
      },
      { timeout: 5000, interval: 20 },
    );
    expect(changed).not.toHaveBeenCalled();
  });
});
