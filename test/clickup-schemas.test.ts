// The clickup plugin's options, its registration as a built-in kind, and the schemas its enricher fits to the
// lists: status enums, priority names, a typed cf_ parameter per custom field, one list and several.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUILTIN_KINDS } from '../src/plugins/index.js';
import clickup, { ClickUpOptionsSchema } from '../src/plugins/clickup/index.js';
import { FIELDS, LIST_ID, OTHER_LIST_ID, field, status } from './support/fake-clickup-bodies.js';
import { type ClickUpRig, isListMetadata, startClickUpRig } from './support/fake-clickup.js';
import { pluginContext } from './support/workspace-tree.js';

let rig: ClickUpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('clickup options', () => {
  it('fills defaults and takes list ids as strings or numbers', () => {
    expect(
      ClickUpOptionsSchema.parse({ lists: ['901234567', 901234999], token_env: 'CLICKUP_TOKEN' }),
    ).toEqual({
      lists: ['901234567', '901234999'],
      token_env: 'CLICKUP_TOKEN',
      custom_task_ids: false,
      base_url: 'https://api.clickup.com/api/v2',
      metadata_ttl_s: 600,
      retries: 2,
    });
    for (const bad of [
      { lists: [], token_env: 'T' },
      { lists: ['abc'], token_env: 'T' },
      { lists: ['1'] },
      { lists: ['1'], token_env: 'T', custom_task_ids: true },
      { lists: ['1'], token_env: 'T', colour: 'blue' },
    ]) {
      expect(ClickUpOptionsSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('refuses bad options at build, naming the key', async () => {
    await expect(
      Promise.resolve().then(() =>
        clickup.build(pluginContext({ lists: ['1'], token_env: 'T', colour: 'blue' })),
      ),
    ).rejects.toMatchObject({ code: 'E_CONFIG_INVALID', message: expect.stringContaining('colour') });
  });

  it('is the built-in kind "clickup"', () => {
    expect(BUILTIN_KINDS).toContain('clickup');
  });
});

describe('clickup schemas, one list', () => {
  it('offers the statuses, priority names and a typed cf_ parameter per settable field', async () => {
    rig = await startClickUpRig();
    await rig.metadataLoaded();
    const tools = await rig.schemas();
    const create = tools.get('create_issue') ?? {};
    expect(create.status?.enum).toEqual(['to do', 'in progress', 'review', 'complete']);
    expect(tools.get('get_issues')?.statuses).toMatchObject({
      items: { enum: ['to do', 'in progress', 'review', 'complete'] },
    });
    expect(create.priority).toMatchObject({ enum: ['urgent', 'high', 'normal', 'low', 1, 2, 3, 4] });
    expect(create.cf_severity).toMatchObject({ type: 'string', enum: ['Critical', 'High', 'Medium', 'Low'] });
    expect(create.cf_areas).toMatchObject({ type: 'array', items: { enum: ['UI', 'API'] } });
    expect(create.cf_estimate).toMatchObject({ type: 'number' });
    expect(create.cf_budget).toMatchObject({ type: 'number', description: expect.stringContaining('USD') });
    expect(create.cf_approved).toMatchObject({ type: 'boolean' });
    expect(create.cf_launch).toMatchObject({ type: 'string' });
    expect(create.cf_notes).toMatchObject({ type: 'string' });
    expect(create.cf_code).toMatchObject({ type: 'string' });
    expect(create.cf_spec).toMatchObject({ type: 'string', format: 'uri' });
    expect(create.cf_contact).toMatchObject({ type: 'string', format: 'email' });
    expect(create.cf_phone).toMatchObject({ type: 'string' });
    expect(create.cf_rating).toMatchObject({ type: 'integer', minimum: 0, maximum: 5 });
    expect(create.cf_reviewers).toMatchObject({ type: 'array' });
    expect(create.cf_related).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(create.cf_office).toMatchObject({ type: 'object', required: ['lat', 'lng'] });
    expect(create.cf_progress).toMatchObject({ type: 'number', minimum: 0, maximum: 100 });
    // Non-ASCII names become stable ASCII-safe parameter names.
    expect(create.cf_prioritet).toMatchObject({ enum: ['Высокий', 'Низкий'] });
    // Automatic progress is computed by ClickUp: nothing to set.
    expect(Object.keys(create).some((name) => name.startsWith('cf_done'))).toBe(false);
    for (const gone of ['customFields', 'components', 'epic', 'sprint', 'type', 'milestone', 'list']) {
      expect(create, gone).not.toHaveProperty(gone);
    }
    expect(tools.get('get_issues')).not.toHaveProperty('query');
    expect(tools.get('get_issues')).not.toHaveProperty('author');
    expect(tools.get('get_issues')?.sort?.enum).toEqual(['created', 'updated', 'due_date']);
    expect(tools.get('link_issues')?.link_type).toMatchObject({
      enum: ['linked', 'waiting_on', 'blocking'],
      default: 'linked',
    });
  });

  it('keeps serving with generic schemas, and says so, when the metadata cannot load', async () => {
    rig = await startClickUpRig({ lists: false, unmatched: isListMetadata });
    await vi.waitFor(() =>
      expect(rig?.logs.some((l) => String(l.msg).includes('schemas stay generic'))).toBe(true),
    );
    const { tools } = await rig.client.listTools();
    const create = tools.find((t) => t.name === 'clickup__create_issue');
    expect(create?.description).toContain('metadata is not loaded');
    expect(create?.inputSchema.properties).not.toHaveProperty('customFields');
    expect(create?.inputSchema.properties?.status).not.toHaveProperty('enum');
  });
});

describe('clickup schemas, several lists', () => {
  it('takes a list by name or id, and scopes each field to the lists that have it', async () => {
    const shared = FIELDS.severity;
    const onlyOps = field('f-ops', 'On call', 'checkbox');
    rig = await startClickUpRig({
      lists: [
        { id: LIST_ID, name: 'Backlog', fields: [shared, FIELDS.estimate] },
        {
          id: OTHER_LIST_ID,
          name: 'Ops',
          fields: [shared, onlyOps],
          statuses: [status('open', 'open', 0), status('done', 'done', 1)],
        },
      ],
    });
    await rig.metadataLoaded();
    const tools = await rig.schemas();
    const create = tools.get('create_issue') ?? {};
    expect(create.list?.enum).toEqual(['Backlog', 'Ops', LIST_ID, OTHER_LIST_ID]);
    const { tools: listed } = await rig.client.listTools();
    expect(listed.find((t) => t.name === 'clickup__create_issue')?.inputSchema.required).toContain('list');
    expect(create.status?.enum).toEqual(['to do', 'in progress', 'review', 'complete', 'open', 'done']);
    expect(create.cf_severity?.description).not.toContain('lists:');
    expect(create.cf_on_call).toMatchObject({
      type: 'boolean',
      description: expect.stringContaining('(lists: Ops)'),
    });
    expect(create.cf_estimate?.description).toContain('(lists: Backlog)');
    expect(tools.get('get_issues')?.list).toBeDefined();
    expect(tools.get('get_issue')).not.toHaveProperty('list');
  });

  it('keeps two different fields of the same name apart, each with its own type', async () => {
    rig = await startClickUpRig({
      lists: [
        { id: LIST_ID, name: 'Backlog', fields: [FIELDS.severity] },
        { id: OTHER_LIST_ID, name: 'Ops', fields: [field('f-sev-ops', 'Severity', 'number')] },
      ],
    });
    await rig.metadataLoaded();
    const create = (await rig.schemas()).get('create_issue') ?? {};
    const names = Object.keys(create).filter((name) => name.startsWith('cf_severity'));
    expect(names).toHaveLength(2);
    expect(names.every((name) => /^cf_severity_[0-9a-f]{6}$/.test(name))).toBe(true);
    const types = names.map((name) => create[name]?.type).sort();
    expect(types).toEqual(['number', 'string']);
    const dropDown = names.find((name) => create[name]?.type === 'string') ?? '';
    expect(create[dropDown]).toMatchObject({
      enum: ['Critical', 'High', 'Medium', 'Low'],
      description: expect.stringContaining('(lists: Backlog)'),
    });
  });
});
