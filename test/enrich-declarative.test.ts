import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type ToolDescriptor, definePlugin } from '../src/index.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';

const FILE = '/proj/foresight.toml';
let received: { name: string; args: Record<string, unknown> }[] = [];
let connected: Connected | undefined;

afterEach(async () => {
  await connected?.close();
  connected = undefined;
  received = [];
});

const TOOLS: ToolDescriptor[] = [
  {
    name: 'write_file',
    description: 'Writes a file.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'where' },
        content: { type: 'string' },
        dryRun: { type: 'boolean' },
        encoding: { type: 'string', enum: ['utf8', 'base64'] },
        mode: { type: 'integer' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    annotations: { destructiveHint: true },
  },
  {
    name: 'search',
    description: 'Searches.',
    inputSchema: {
      type: 'object',
      properties: {
        q: { type: 'string' },
        per_page: { type: 'integer', maximum: 100 },
        page: { type: 'integer' },
      },
      required: ['q'],
    },
  },
];

/** A mounted test plugin, prefixed "fs", standing for any plugin (an upstream server included). */
const fsPlugin = definePlugin({
  id: 'fs',
  version: '1.0.0',
  build: () => ({
    tools: () => TOOLS,
    callTool: async (name, args) => {
      received.push({ name, args });
      return { content: [{ type: 'text', text: 'done' }] };
    },
  }),
});

async function serve(toml: string, records: Record<string, unknown>[] = []): Promise<Connected> {
  connected = await connect({
    config: parseConfig(toml, FILE, '/proj', {}),
    plugins: [fsPlugin],
    logger: createMemoryLogger(records),
  });
  return connected;
}

async function tool(c: Connected, name: string) {
  const found = (await c.client.listTools()).tools.find((t) => t.name === name);
  if (!found) throw new Error(`${name} is not listed`);
  return found;
}

async function call(c: Connected, name: string, args: Record<string, unknown>) {
  const result = await c.client.callTool({ name, arguments: args });
  return { isError: result.isError === true, text: textOf(result) };
}

describe('[[enrich]] hide', () => {
  it('removes the parameter from the schema and refuses it from the agent', async () => {
    const c = await serve('[[enrich]]\ntools = ["fs__write_file"]\nhide = ["mode"]\n');
    const write = await tool(c, 'fs__write_file');
    expect(Object.keys(write.inputSchema.properties ?? {})).toEqual([
      'path',
      'content',
      'dryRun',
      'encoding',
    ]);
    const refused = await call(c, 'fs__write_file', { path: 'a', content: 'b', mode: 0o644 });
    expect(refused).toEqual({
      isError: true,
      text: 'parameter "mode" of tool "fs__write_file" is not available: [[enrich]] #1 (line 1) hides it',
    });
    expect(received).toEqual([]);
  });

  it('warns when it hides a required parameter that has no default', async () => {
    const records: Record<string, unknown>[] = [];
    const c = await serve('[[enrich]]\ntools = ["fs__search"]\nhide = ["q"]\n', records);
    await c.client.listTools();
    expect(records.map((r) => r.msg)).toContain(
      '[[enrich]] #1 (line 1) hides required parameter "q" of tool "fs__search" without a default: its calls will lack it and be refused',
    );
  });
});

describe('[[enrich]] pin', () => {
  const toml = '[[enrich]]\ntools = ["fs__*"]\npin = { dryRun = true, per_page = 50 }\n';

  it('hides pinned parameters and sets them on every call', async () => {
    const c = await serve(toml);
    expect((await tool(c, 'fs__write_file')).inputSchema.properties).not.toHaveProperty('dryRun');
    expect((await tool(c, 'fs__search')).inputSchema.properties).not.toHaveProperty('per_page');
    expect((await call(c, 'fs__write_file', { path: 'a', content: 'b' })).isError).toBe(false);
    expect((await call(c, 'fs__search', { q: 'x' })).isError).toBe(false);
    expect(received).toEqual([
      { name: 'write_file', args: { path: 'a', content: 'b', dryRun: true } },
      { name: 'search', args: { q: 'x', per_page: 50 } },
    ]);
  });

  it('refuses an agent value for a pinned parameter, even the same value', async () => {
    const c = await serve(toml);
    for (const dryRun of [false, true]) {
      expect(await call(c, 'fs__write_file', { path: 'a', content: 'b', dryRun })).toEqual({
        isError: true,
        text: 'parameter "dryRun" of tool "fs__write_file" is fixed to true by [[enrich]] #1 (line 1); leave it out',
      });
    }
    expect(received).toEqual([]);
  });

  it('refuses a pinned or default value the tool would refuse: that tool fails its listing, naming the block', async () => {
    const c = await serve(
      '[[enrich]]\ntools = ["fs__search"]\npin = { per_page = 500 }\n[[enrich]]\ntools = ["fs__write_file"]\ndefaults = { encoding = "latin1" }\n',
    );
    expect((await c.client.listTools()).tools).toEqual([]);
    expect((await call(c, 'fs__search', { q: 'x' })).text).toBe(
      'enricher "[[enrich]] #1 (line 1)" (global) failed on tool "fs__search" while listing it: pin per_page = 500 does not fit the tool: parameter "per_page" must be <= 100 (got 500)',
    );
    expect((await call(c, 'fs__write_file', { path: 'a', content: 'b' })).text).toBe(
      'enricher "[[enrich]] #2 (line 4)" (global) failed on tool "fs__write_file" while listing it: default encoding = "latin1" does not fit the tool: parameter "encoding" is "latin1"; allowed: "utf8", "base64"',
    );
    expect(received).toEqual([]);
  });
});

describe('[[enrich]] defaults', () => {
  const toml = '[[enrich]]\ntools = ["fs__search"]\ndefaults = { per_page = 20, q = "TODO" }\n';

  it('shows the default, makes the parameter optional, and applies it when left out', async () => {
    const c = await serve(toml);
    const search = await tool(c, 'fs__search');
    expect(search.inputSchema.properties?.per_page).toEqual({ type: 'integer', maximum: 100, default: 20 });
    expect(search.inputSchema.required).toBeUndefined();
    await call(c, 'fs__search', {});
    await call(c, 'fs__search', { q: 'bug', per_page: 5 });
    expect(received.map((r) => r.args)).toEqual([
      { per_page: 20, q: 'TODO' },
      { q: 'bug', per_page: 5 },
    ]);
  });
});

describe('[[enrich]] rename', () => {
  const toml = '[[enrich]]\ntools = ["fs__write_file"]\nrename = { path = "file", dryRun = "preview" }\n';

  it('shows the new names in place and maps them back on call', async () => {
    const c = await serve(toml);
    const write = await tool(c, 'fs__write_file');
    expect(Object.keys(write.inputSchema.properties ?? {})).toEqual([
      'file',
      'content',
      'preview',
      'encoding',
      'mode',
    ]);
    expect(write.inputSchema.required).toEqual(['file', 'content']);
    expect((await call(c, 'fs__write_file', { file: 'a.txt', content: 'x', preview: true })).isError).toBe(
      false,
    );
    expect(received).toEqual([{ name: 'write_file', args: { path: 'a.txt', content: 'x', dryRun: true } }]);
  });

  it('names parameters by their shown names in validation errors, and refuses the old name', async () => {
    const c = await serve(toml);
    const bad = await call(c, 'fs__write_file', { file: 7, content: 'x' });
    expect(bad.text).toBe(
      'invalid arguments for tool "fs__write_file": parameter "file" must be string (got 7)',
    );
    const missing = await call(c, 'fs__write_file', { content: 'x' });
    expect(missing.text).toContain('missing required parameter "file"');
    const old = await call(c, 'fs__write_file', { path: 'a', content: 'x' });
    expect(old.text).toBe(
      'invalid arguments for tool "fs__write_file": unknown parameter "path"; it is called "file" here',
    );
    expect(received).toEqual([]);
  });

  it('fails the listing of a tool that already has the new name, naming the block', async () => {
    const records: Record<string, unknown>[] = [];
    const c = await serve('[[enrich]]\ntools = ["fs__write_file"]\nrename = { path = "content" }\n', records);
    expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual(['fs__search']);
    expect((await call(c, 'fs__write_file', { path: 'a', content: 'b' })).text).toBe(
      'enricher "[[enrich]] #1 (line 1)" (global) failed on tool "fs__write_file" while listing it: cannot show parameter "path" as "content": the tool already has a parameter "content"',
    );
  });
});

describe('[[enrich]] description and annotations', () => {
  it('replaces the description and merges annotations, e.g. marking a tool read-only', async () => {
    const c = await serve(
      [
        '[[enrich]]',
        'tools = ["fs__search"]',
        'description = "Search the team wiki."',
        'annotations = { readOnlyHint = true, title = "Wiki search" }',
        '[[enrich]]',
        'tools = ["fs__write_*"]',
        'annotations = { destructiveHint = false }',
      ].join('\n'),
    );
    const search = await tool(c, 'fs__search');
    expect(search.description).toBe('Search the team wiki.');
    expect(search.annotations).toEqual({ readOnlyHint: true, title: 'Wiki search' });
    expect((await tool(c, 'fs__write_file')).annotations).toEqual({ destructiveHint: false });
  });

  it('applies blocks in file order: a later block sees what an earlier one made', async () => {
    const c = await serve(
      [
        '[[enrich]]',
        'tools = ["fs__write_file"]',
        'rename = { path = "file" }',
        '[[enrich]]',
        'tools = ["fs__write_file"]',
        'defaults = { file = "notes.txt" }',
      ].join('\n'),
    );
    expect((await tool(c, 'fs__write_file')).inputSchema.properties?.file).toEqual({
      type: 'string',
      description: 'where',
      default: 'notes.txt',
    });
    await call(c, 'fs__write_file', { content: 'x' });
    expect(received).toEqual([{ name: 'write_file', args: { content: 'x', path: 'notes.txt' } }]);
  });
});

describe('[[enrich]] config errors name the block', () => {
  const problem = (toml: string) => {
    try {
      parseConfig(toml, FILE, '/proj', {});
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('expected the config to be refused');
  };

  it('refuses a parameter both pinned and hidden, a default for a pinned one, and two renames to one name', () => {
    const message = problem(
      [
        '[plugins.workspace]',
        '[[enrich]]',
        'tools = ["fs__*"]',
        'pin = { dryRun = true }',
        'hide = ["dryRun"]',
        'defaults = { dryRun = false }',
        '[[enrich]]',
        'tools = ["fs__*"]',
        'rename = { a = "x", b = "x" }',
      ].join('\n'),
    );
    expect(message).toContain(
      `${FILE}:5: enrich[0].hide: "dryRun" is pinned, which already hides it; drop it from hide`,
    );
    expect(message).toContain(
      `${FILE}:6: enrich[0].defaults.dryRun: "dryRun" is pinned; a default would never apply`,
    );
    expect(message).toContain(`${FILE}:9: enrich[1].rename.b: "a" is already shown as "x"`);
  });

  it('refuses a rename to a name clients do not accept', () => {
    expect(problem('[[enrich]]\ntools = ["x"]\nrename = { a = "has space" }\n')).toContain(
      `${FILE}:3: enrich[0].rename.a: expected a parameter name (^[A-Za-z0-9_.-]{1,64}$), got "has space"`,
    );
  });
});
