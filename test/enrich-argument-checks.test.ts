// A call's arguments are checked twice: the agent's against the schema it was shown, then what the enricher chain
// made of them against the plugin's own schema, where a failure names the enricher that made it.
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig, registerSecret } from '../src/config/index.js';
import { type ToolDescriptor, type ToolEnricher, definePlugin } from '../src/index.js';
import { type Connected, connect, textOf } from './support/in-memory.js';

let received: { name: string; args: Record<string, unknown> }[] = [];
let connected: Connected | undefined;

afterEach(async () => {
  await connected?.close();
  connected = undefined;
  received = [];
});

/** The plugin's own schemas: what its code takes once the enrichers have mapped the agent's values. Without a
 * category, the tools are listed whichever enrichers a test gives. */
const TOOLS: ToolDescriptor[] = [
  {
    name: 'create_issue',
    inputSchema: {
      type: 'object',
      properties: {
        title: { type: 'string', maxLength: 80 },
        priority: { type: 'integer', minimum: 1, maximum: 4 },
      },
      required: ['title'],
      additionalProperties: false,
    },
  },
  {
    // The second-parameter pattern: the agent picks line_type, the plugin takes the provider's side.
    name: 'comment',
    inputSchema: {
      type: 'object',
      properties: {
        body: { type: 'string' },
        line_type: { type: 'string', enum: ['new', 'old'] },
        side: { type: 'string', enum: ['LEFT', 'RIGHT'] },
      },
      required: ['body', 'side'],
      additionalProperties: false,
    },
  },
  {
    name: 'search',
    inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  },
];

const RIGHT_PRIORITIES = { urgent: 1, high: 2, normal: 3, low: 4 };

/** Shows priority names and maps each in place to the number in `numbers`. */
function priorities(numbers: Record<string, unknown> = RIGHT_PRIORITIES): ToolEnricher {
  return {
    name: 'priorities',
    supportedCategories: () => ['issue_tracker'],
    enrichSchema: (_tool, schema) => {
      if (schema.param('priority'))
        schema.addParam('priority', { type: 'string', enum: Object.keys(numbers) });
    },
    transformArgs: (_tool, args) => {
      if (typeof args.priority === 'string') args.priority = numbers[args.priority];
    },
  };
}

/** Hides `side` and fills it in from line_type with `left` for "old" (null: leaves it out). */
function sides(left: string | null = 'LEFT'): ToolEnricher {
  return {
    name: 'sides',
    supportedCategories: () => [],
    enrichSchema: (tool, schema) => {
      if (tool.name === 'comment') schema.removeParams(['side']);
    },
    transformArgs: (tool, args) => {
      if (tool.name !== 'comment') return;
      const side = args.line_type === 'old' ? left : 'RIGHT';
      if (side !== null) args.side = side;
      delete args.line_type;
    },
  };
}

function tracker(enrichers: ToolEnricher[]) {
  return definePlugin({
    id: 'tracker',
    version: '1.0.0',
    build: () => ({
      tools: () => TOOLS,
      enrichers: () => enrichers,
      callTool: async (name, args) => {
        received.push({ name, args });
        return { content: [{ type: 'text', text: 'done' }] };
      },
    }),
  });
}

async function serve(
  enrichers: ToolEnricher[],
  options: { globals?: ToolEnricher[]; toml?: string } = {},
): Promise<Connected> {
  connected = await connect({
    plugins: [tracker(enrichers)],
    ...(options.globals ? { enrichers: options.globals } : {}),
    ...(options.toml ? { config: parseConfig(options.toml, '/proj/foresight.toml', '/proj', {}) } : {}),
  });
  return connected;
}

async function call(name: string, args: Record<string, unknown>) {
  const result = await connected?.client.callTool({ name, arguments: args });
  if (!result) throw new Error('not connected');
  const meta = result._meta?.['foresight/error'] as { code?: string } | undefined;
  return { isError: result.isError === true, code: meta?.code, text: textOf(result) };
}

describe('an enricher that maps a value in place', () => {
  it('passes the name the agent was shown, and the plugin gets the number its schema takes', async () => {
    await serve([priorities()]);
    const ok = await call('tracker__create_issue', { title: 'T', priority: 'high' });
    expect(ok.isError, ok.text).toBe(false);
    expect(received).toEqual([{ name: 'create_issue', args: { title: 'T', priority: 2 } }]);
  });

  it("refuses the agent's own mistake in the agent's terms, before any enricher runs", async () => {
    await serve([priorities()]);
    expect(await call('tracker__create_issue', { title: 'T', priority: 'someday' })).toEqual({
      isError: true,
      code: 'E_INVALID_ARGUMENTS',
      text: 'invalid arguments for tool "tracker__create_issue": parameter "priority" is "someday"; allowed: "urgent", "high", "normal", "low"',
    });
    // A number is what the plugin takes, not what the agent was shown.
    const number = await call('tracker__create_issue', { title: 'T', priority: 2 });
    expect(number.code).toBe('E_INVALID_ARGUMENTS');
    expect(number.text).toContain('parameter "priority" must be string (got 2)');
    expect(received).toEqual([]);
  });

  it('names the enricher that maps it wrongly, with the parameter, the value and what the plugin allows', async () => {
    await serve([priorities({ ...RIGHT_PRIORITIES, high: 7, low: '4' })]);
    expect(await call('tracker__create_issue', { title: 'T', priority: 'high' })).toEqual({
      isError: true,
      code: 'E_ENRICHER_FAILED',
      text: `enricher "priorities" of plugin "tracker" failed on tool "tracker__create_issue" while mapping its arguments: the plugin's schema refuses what it passed on: parameter "priority" must be <= 4 (got 7)`,
    });
    expect((await call('tracker__create_issue', { title: 'T', priority: 'low' })).text).toContain(
      'parameter "priority" must be integer (got "4")',
    );
    expect(received).toEqual([]);
  });

  it('names the link that changed the value, not another link of the chain', async () => {
    const stamp: ToolEnricher = {
      name: 'stamp',
      supportedCategories: () => [],
      enrichSchema: () => {},
      transformArgs: (_tool, args) => {
        if (args.title === 'number me') args.title = 42;
      },
    };
    await serve([priorities({ ...RIGHT_PRIORITIES, high: 7 })], { globals: [stamp] });
    expect((await call('tracker__create_issue', { title: 'number me', priority: 'low' })).text).toBe(
      `enricher "stamp" (global) failed on tool "tracker__create_issue" while mapping its arguments: the plugin's schema refuses what it passed on: parameter "title" must be string (got 42)`,
    );
    expect((await call('tracker__create_issue', { title: 'T', priority: 'high' })).text).toMatch(
      /^enricher "priorities" of plugin "tracker" failed .*parameter "priority" must be <= 4 \(got 7\)$/,
    );
    expect(received).toEqual([]);
  });

  it('follows a rule that renames the parameter: the agent uses the new name, the error the plugin’s', async () => {
    const toml = '[[enrich]]\ntools = ["tracker__create_issue"]\nrename = { priority = "urgency" }\n';
    await serve([priorities()], { toml });
    expect((await call('tracker__create_issue', { title: 'T', urgency: 'urgent' })).isError).toBe(false);
    expect(received).toEqual([{ name: 'create_issue', args: { title: 'T', priority: 1 } }]);
    await connected?.close();

    await serve([priorities({ ...RIGHT_PRIORITIES, urgent: 0 })], { toml });
    expect((await call('tracker__create_issue', { title: 'T', urgency: 'urgent' })).text).toMatch(
      /^enricher "priorities" of plugin "tracker" failed .*parameter "priority" must be >= 1 \(got 0\)$/,
    );
    expect((await call('tracker__create_issue', { title: 'T', urgency: 0 })).text).toContain(
      'invalid arguments for tool "tracker__create_issue": parameter "urgency" must be string (got 0)',
    );
  });

  it('quotes a value without the secret in it, even where the quote is cut short', async () => {
    const secret = 'sk-test-7f3a9c1e5b2d4f6a8c0e';
    registerSecret(secret);
    const leaky: ToolEnricher = {
      name: 'leaky',
      supportedCategories: () => [],
      enrichSchema: () => {},
      transformArgs: (_tool, args) => {
        // The secret straddles the 60-character cut: a quote cut first and redacted after would keep its head.
        args.title = `${'x'.repeat(40)}${secret}${'y'.repeat(40)}`;
      },
    };
    await serve([], { globals: [leaky] });
    const { text } = await call('tracker__create_issue', { title: 'T' });
    expect(text).toContain('enricher "leaky" (global) failed');
    expect(text).toContain('parameter "title" must NOT have more than 80 characters');
    expect(text).not.toContain(secret.slice(0, 8));
  });
});

describe('the second-parameter pattern', () => {
  it('fills a parameter the agent does not see and the plugin requires', async () => {
    await serve([sides()]);
    const ok = await call('tracker__comment', { body: 'b', line_type: 'old' });
    expect(ok.isError, ok.text).toBe(false);
    expect(received).toEqual([{ name: 'comment', args: { body: 'b', side: 'LEFT' } }]);
    // The plugin's parameter is not the agent's to send.
    expect((await call('tracker__comment', { body: 'b', side: 'LEFT' })).text).toBe(
      'invalid arguments for tool "tracker__comment": unknown parameter "side"; allowed: body, line_type',
    );
  });

  it('names the enricher that fills it wrongly, or not at all', async () => {
    await serve([sides('OLD')]);
    expect(await call('tracker__comment', { body: 'b', line_type: 'old' })).toEqual({
      isError: true,
      code: 'E_ENRICHER_FAILED',
      text: `enricher "sides" of plugin "tracker" failed on tool "tracker__comment" while mapping its arguments: the plugin's schema refuses what it passed on: parameter "side" is "OLD"; allowed: "LEFT", "RIGHT"`,
    });
    await connected?.close();

    await serve([sides(null)]);
    expect((await call('tracker__comment', { body: 'b', line_type: 'old' })).text).toBe(
      `enricher "sides" of plugin "tracker" failed on tool "tracker__comment" while mapping its arguments: the plugin's schema refuses what it passed on: missing required parameter "side"`,
    );
    expect(received).toEqual([]);
  });
});

describe('rules from the config', () => {
  it('blame the rule that hides a required parameter without a default', async () => {
    await serve([], { toml: '[[enrich]]\ntools = ["tracker__search"]\nhide = ["q"]\n' });
    expect(await call('tracker__search', {})).toEqual({
      isError: true,
      code: 'E_ENRICHER_FAILED',
      text: `enricher "[[enrich]] #1 (line 1)" (global) failed on tool "tracker__search" while mapping its arguments: the plugin's schema refuses what it passed on: missing required parameter "q"`,
    });
  });

  it('fill in a pinned required parameter the agent cannot send', async () => {
    await serve([], { toml: '[[enrich]]\ntools = ["tracker__search"]\npin = { q = "bug" }\n' });
    expect((await call('tracker__search', {})).isError).toBe(false);
    expect(received).toEqual([{ name: 'search', args: { q: 'bug' } }]);
  });
});
