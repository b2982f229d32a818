import { afterEach, describe, expect, it } from 'vitest';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import {
  type PluginContext,
  type ToolCategory,
  type ToolDescriptor,
  type ToolEnricher,
  PluginError,
  definePlugin,
} from '../src/index.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';

/** What the plugin received, per call, so a test can prove nothing reached it. */
let received: { name: string; args: Record<string, unknown> }[] = [];
let context: PluginContext | undefined;
let connected: Connected | undefined;

afterEach(async () => {
  await connected?.close();
  connected = undefined;
  received = [];
  context = undefined;
});

const PRIORITIES = ['Highest', 'High', 'Medium', 'Low'];

const TRACKER_TOOLS: ToolDescriptor[] = [
  {
    name: 'create_issue',
    category: 'issue_tracker',
    inputSchema: {
      type: 'object',
      properties: {
        title: { type: 'string' },
        priority: { type: 'string', description: 'priority name' },
        limit: { type: 'integer' },
      },
      required: ['title'],
      additionalProperties: false,
    },
  },
  {
    name: 'get_merge_requests',
    category: 'git_repository',
    inputSchema: { type: 'object', properties: { state: { type: 'string' } } },
  },
  { name: 'ping', inputSchema: { type: 'object', properties: {} } },
];

/** A tracker plugin whose enrichers come from the test. */
function trackerPlugin(enrichers: () => ToolEnricher[], tools: () => ToolDescriptor[] = () => TRACKER_TOOLS) {
  return definePlugin({
    id: 'tracker',
    version: '1.0.0',
    build: (ctx) => {
      context = ctx;
      return {
        tools,
        enrichers,
        callTool: async (name, args) => {
          received.push({ name, args });
          return { content: [{ type: 'text', text: `${name} ${JSON.stringify(args)}` }] };
        },
      };
    },
  });
}

/** Serves `categories`, sets the priority enum, and maps the alias "urgent" to "Highest". */
class PriorityEnricher implements ToolEnricher {
  readonly name = 'priorities';
  schemaCalls = 0;
  constructor(public categories: ToolCategory[] = ['issue_tracker']) {}
  supportedCategories() {
    return this.categories;
  }
  enrichSchema(tool: { name: string }, schema: Parameters<ToolEnricher['enrichSchema']>[1]) {
    this.schemaCalls += 1;
    if (schema.param('priority')) schema.setEnum('priority', PRIORITIES);
  }
  transformArgs(_tool: unknown, args: Record<string, unknown>) {
    if (args.priority === 'urgent') args.priority = 'Highest';
  }
}

async function toolNames(c: Connected): Promise<string[]> {
  return (await c.client.listTools()).tools.map((tool) => tool.name);
}

async function callError(c: Connected, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await c.client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return textOf(result);
}

describe('category visibility', () => {
  it('lists a categorised tool only while some enricher serves its category; uncategorised always', async () => {
    const enricher = new PriorityEnricher(['issue_tracker']);
    connected = await connect({ plugins: [trackerPlugin(() => [enricher])] });
    expect(await toolNames(connected)).toEqual(['tracker__create_issue', 'tracker__ping']);

    const hidden = connected.client.callTool({ name: 'tracker__get_merge_requests', arguments: {} });
    await expect(hidden).rejects.toThrow(ProtocolError);
    await expect(hidden).rejects.toMatchObject({ code: ProtocolErrorCode.InvalidParams });
    await expect(hidden).rejects.toThrow(/no active enricher serves its category "git_repository"/);
    expect(received).toEqual([]);
  });

  it('shows a tool once its category is served, after a refresh, and tells the client', async () => {
    const enricher = new PriorityEnricher(['issue_tracker']);
    connected = await connect({ plugins: [trackerPlugin(() => [enricher])] });
    expect(await toolNames(connected)).not.toContain('tracker__get_merge_requests');
    const changed = new Promise<void>((resolve) =>
      connected?.client.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
    );
    enricher.categories = ['issue_tracker', 'git_repository'];
    // A plugin with new metadata says so through its context; the pipeline rebuilds from it.
    context?.notifyListChanged('tools');
    await changed;
    expect(await toolNames(connected)).toContain('tracker__get_merge_requests');
  });

  it('hides every categorised tool of a plugin without enrichers', async () => {
    connected = await connect({ plugins: [trackerPlugin(() => [])] });
    expect(await toolNames(connected)).toEqual(['tracker__ping']);
  });

  it('a global cross-cutting enricher (no categories) sees every tool but unhides none', async () => {
    const seen: string[] = [];
    const crossCutting: ToolEnricher = {
      name: 'audit',
      supportedCategories: () => [],
      enrichSchema: (tool) => void seen.push(tool.published),
      transformArgs: () => {},
    };
    connected = await connect({
      plugins: [trackerPlugin(() => [new PriorityEnricher(['issue_tracker'])])],
      enrichers: [crossCutting],
    });
    expect(await toolNames(connected)).toEqual(['tracker__create_issue', 'tracker__ping']);
    expect(seen).toEqual(['tracker__create_issue', 'tracker__ping']);
  });
});

describe('the chain', () => {
  it('edits schemas in registration order: the plugin own enrichers, then global ones', async () => {
    const order: string[] = [];
    const global: ToolEnricher = {
      name: 'team-priorities',
      supportedCategories: () => ['issue_tracker'],
      enrichSchema: (tool, schema) => {
        order.push(`global:${tool.name}`);
        if (!schema.param('priority')) return;
        // Sees the plugin enricher's enum, and narrows it.
        const before = schema.param('priority')?.enum as string[];
        schema.setEnum(
          'priority',
          before.filter((p) => p !== 'Highest'),
        );
        schema.setParamDescription('priority', `one of ${before.length - 1} team priorities`);
      },
      transformArgs: () => {},
    };
    const own = new PriorityEnricher();
    const spy: ToolEnricher = {
      name: 'spy',
      supportedCategories: () => ['issue_tracker'],
      enrichSchema: (tool) => void order.push(`own:${tool.name}`),
      transformArgs: () => {},
    };
    connected = await connect({ plugins: [trackerPlugin(() => [own, spy])], enrichers: [global] });
    const { tools } = await connected.client.listTools();
    const create = tools.find((tool) => tool.name === 'tracker__create_issue');
    expect(create?.inputSchema.properties?.priority).toEqual({
      type: 'string',
      description: 'one of 3 team priorities',
      enum: ['High', 'Medium', 'Low'],
      'x-foresight-enriched': true,
    });
    expect(order.filter((step) => step.endsWith('create_issue'))).toEqual([
      'own:create_issue',
      'global:create_issue',
    ]);
  });

  it('validates arguments against the enriched schema before mapping them back through the chain', async () => {
    connected = await connect({ plugins: [trackerPlugin(() => [new PriorityEnricher()])] });
    const ok = await connected.client.callTool({
      name: 'tracker__create_issue',
      arguments: { title: 'T', priority: 'High' },
    });
    expect(ok.isError).toBeFalsy();
    expect(received).toEqual([{ name: 'create_issue', args: { title: 'T', priority: 'High' } }]);

    // The enricher would map "urgent", but the agent was shown an enum without it: the agent's call is refused.
    for (const priority of ['someday', 'urgent']) {
      const message = await callError(connected, 'tracker__create_issue', { title: 'T', priority });
      expect(message).toBe(
        `invalid arguments for tool "tracker__create_issue": parameter "priority" is "${priority}"; allowed: "Highest", "High", "Medium", "Low"`,
      );
    }
    expect(received).toHaveLength(1);
  });

  it('names every bad parameter, the value given and the type or values allowed', async () => {
    connected = await connect({ plugins: [trackerPlugin(() => [new PriorityEnricher()])] });
    const message = await callError(connected, 'tracker__create_issue', {
      priority: 'later',
      limit: 'ten',
      colour: 'red',
    });
    expect(message).toContain('missing required parameter "title"');
    expect(message).toContain('parameter "priority" is "later"; allowed: "Highest", "High", "Medium", "Low"');
    expect(message).toContain('parameter "limit" must be integer (got "ten")');
    expect(message).toContain('unknown parameter "colour"; allowed: title, priority, limit');
    expect(received).toEqual([]);
  });

  it('builds the enriched list once and serves it from cache until something changes', async () => {
    const enricher = new PriorityEnricher();
    connected = await connect({ plugins: [trackerPlugin(() => [enricher])] });
    await connected.client.listTools();
    const afterFirst = enricher.schemaCalls;
    await connected.client.listTools();
    await connected.client.callTool({ name: 'tracker__create_issue', arguments: { title: 'x' } });
    expect(enricher.schemaCalls).toBe(afterFirst);

    connected.host.tools.refresh();
    await new Promise((resolve) => setImmediate(resolve));
    expect(enricher.schemaCalls).toBe(afterFirst * 2);
  });

  it('rebuilds when an enricher asks through watch(), and tells the client', async () => {
    let states = ['open', 'closed'];
    let changed: (() => void) | undefined;
    const watching: ToolEnricher = {
      name: 'states',
      supportedCategories: () => ['git_repository'],
      enrichSchema: (_tool, schema) => {
        if (schema.param('state')) schema.setEnum('state', states);
      },
      transformArgs: () => {},
      watch: (notify) => void (changed = notify),
    };
    connected = await connect({ plugins: [trackerPlugin(() => [])], enrichers: [watching] });
    const stateEnum = async () =>
      (await connected?.client.listTools())?.tools.find((t) => t.name === 'tracker__get_merge_requests')
        ?.inputSchema.properties?.state;
    expect(await stateEnum()).toMatchObject({ enum: ['open', 'closed'] });
    const notified = new Promise<void>((resolve) =>
      connected?.client.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
    );
    states = ['open', 'closed', 'merged'];
    changed?.();
    await notified;
    expect(await stateEnum()).toMatchObject({ enum: ['open', 'closed', 'merged'] });
  });

  it('sends no list_changed when a rebuild changes nothing the client sees', async () => {
    connected = await connect({ plugins: [trackerPlugin(() => [new PriorityEnricher()])] });
    await connected.client.listTools();
    let notified = 0;
    connected.client.setNotificationHandler('notifications/tools/list_changed', () => void (notified += 1));
    connected.host.tools.refresh();
    await new Promise((resolve) => setImmediate(resolve));
    await connected.client.listTools();
    expect(notified).toBe(0);
  });
});

describe('an enricher that throws', () => {
  const throwingOn = (stage: 'schema' | 'args'): ToolEnricher => ({
    name: 'fragile',
    supportedCategories: () => ['issue_tracker', 'git_repository'],
    enrichSchema: (tool) => {
      if (stage === 'schema' && tool.name === 'create_issue') throw new Error('metadata missing');
    },
    transformArgs: (tool) => {
      if (stage === 'args' && tool.name === 'get_merge_requests')
        throw new TypeError('cannot read "id" of undefined');
    },
  });

  it('leaves that tool out of the list and fails its calls, naming the enricher; the rest serve on', async () => {
    const records: Record<string, unknown>[] = [];
    connected = await connect({
      plugins: [trackerPlugin(() => [throwingOn('schema')])],
      logger: createMemoryLogger(records),
    });
    expect(await toolNames(connected)).toEqual(['tracker__get_merge_requests', 'tracker__ping']);
    expect(await callError(connected, 'tracker__create_issue', { title: 'x' })).toBe(
      'enricher "fragile" of plugin "tracker" failed on tool "tracker__create_issue" while listing it: metadata missing',
    );
    const other = await connected.client.callTool({ name: 'tracker__ping', arguments: {} });
    expect(other.isError).toBeFalsy();
    expect(records.some((r) => r.level === 'error' && r.tool === 'tracker__create_issue')).toBe(true);
  });

  it('fails only that call when it throws while mapping arguments', async () => {
    connected = await connect({ plugins: [trackerPlugin(() => [throwingOn('args')])] });
    expect(await callError(connected, 'tracker__get_merge_requests', {})).toBe(
      'enricher "fragile" of plugin "tracker" failed on tool "tracker__get_merge_requests" while mapping its arguments: cannot read "id" of undefined',
    );
    expect(received).toEqual([]);
    expect((await connected.client.callTool({ name: 'tracker__ping', arguments: {} })).isError).toBeFalsy();
  });

  it('passes a PluginError refusal through in its own words', async () => {
    const refusing: ToolEnricher = {
      name: 'guard',
      supportedCategories: () => ['issue_tracker'],
      enrichSchema: () => {},
      transformArgs: (_tool, args) => {
        if (args.title === '') throw new PluginError('invalid_input', 'title must not be empty');
      },
    };
    connected = await connect({ plugins: [trackerPlugin(() => [refusing])] });
    expect(await callError(connected, 'tracker__create_issue', { title: '' })).toBe(
      'title must not be empty',
    );
  });

  it('stops the host from building when enrichers() returns something that is not an enricher', async () => {
    const plugin = trackerPlugin(() => [{ name: 'half' } as unknown as ToolEnricher]);
    await expect(connect({ plugins: [plugin] })).rejects.toThrow(
      /enricher 1 from enrichers\(\) lacks supportedCategories\(\), enrichSchema\(\), transformArgs\(\)/,
    );
  });
});

describe('schemas and dialects', () => {
  const schemaPlugin = (inputSchema: Record<string, unknown>) =>
    definePlugin({
      id: 'schemas',
      version: '1.0.0',
      build: () => ({
        tools: () => [{ name: 'take', inputSchema: inputSchema as ToolDescriptor['inputSchema'] }],
        callTool: async (_name, args) => {
          received.push({ name: 'take', args });
          return { content: [{ type: 'text', text: 'ok' }] };
        },
      }),
    });

  it('publishes a schema with $schema, $defs, $ref, oneOf and unknown keywords unchanged', async () => {
    const inputSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      properties: {
        at: { $ref: '#/$defs/point' },
        mode: { oneOf: [{ const: 'a' }, { const: 'b' }] },
        nested: { type: 'object', properties: { deep: { type: 'string', 'x-vendor': 1 } } },
      },
      additionalProperties: false,
      'x-custom': { keep: true },
    };
    connected = await connect({ plugins: [schemaPlugin(inputSchema)] });
    // Byte for byte as the host serves it (the SDK client's parse reorders keys, so check both sides).
    expect(JSON.stringify(connected.host.tools.listTools()[0]?.inputSchema)).toBe(
      JSON.stringify(inputSchema),
    );
    const [tool] = (await connected.client.listTools()).tools;
    expect(tool?.inputSchema).toEqual(inputSchema);
    const message = await callError(connected, 'schemas__take', { at: { x: 'one' } });
    expect(message).toContain('parameter "at.x" must be number (got "one")');
  });

  it('validates a draft-07 schema by draft-07 rules (tuple items)', async () => {
    connected = await connect({
      plugins: [
        schemaPlugin({
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } },
        }),
      ],
    });
    expect(await callError(connected, 'schemas__take', { pair: ['a', 'b'] })).toContain(
      'parameter "pair.1" must be number (got "b")',
    );
    const ok = await connected.client.callTool({ name: 'schemas__take', arguments: { pair: ['a', 2] } });
    expect(ok.isError).toBeFalsy();
  });

  it('validates a 2020-12 schema by 2020-12 rules (prefixItems)', async () => {
    connected = await connect({
      plugins: [
        schemaPlugin({
          type: 'object',
          properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
        }),
      ],
    });
    expect(await callError(connected, 'schemas__take', { pair: ['a', 'b'] })).toContain(
      'parameter "pair.1" must be number (got "b")',
    );
  });
});
