// Tool rules on a real upstream (server-filesystem on a temp dir), seen through a real SDK client: drop, tools.deny,
// tools.allow and name decide which tools are published and under what name; the host's rule report says what
// each rule matched, and what matches nothing.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProtocolErrorCode } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';

const require = createRequire(import.meta.url);
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const FILE = '/proj/foresight.toml';

let connected: Connected | undefined;
let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'foresight-rules-')));
  await writeFile(join(dir, 'notes.md'), 'kept behind the rules\n');
});

afterEach(async () => {
  await connected?.close();
  connected = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** `[plugins.fs]` mounting server-filesystem on the temp dir, then `rest`. */
function fsConfig(...rest: string[]): string {
  return [
    '[plugins.fs]',
    'use = "upstream"',
    `command = ["node", ${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(dir)}]`,
    ...rest,
  ].join('\n');
}

async function mount(toml: string, records: Record<string, unknown>[] = []): Promise<Connected> {
  connected = await connect({
    config: parseConfig(toml, FILE, '/proj', {}),
    logger: createMemoryLogger(records),
  });
  // The upstream connects in the background: wait until it has listed its tools.
  await connected.host.plugins.settle();
  await vi.waitFor(() => expect(connected?.host.plugins.mountedPlugins()[0]?.health.state).toBe('ready'), {
    timeout: 15_000,
  });
  return connected;
}

async function listed(c: Connected): Promise<string[]> {
  return (await c.client.listTools()).tools.map((tool) => tool.name);
}

/** What a client gets for a tool that is not published: the unknown-tool error. */
const NOT_FOUND = { code: ProtocolErrorCode.InvalidParams, data: { code: 'E_TOOL_NOT_FOUND' } };

describe('drop = true', () => {
  it('leaves the tool out of the list, and a call to it is an unknown tool', async () => {
    const c = await mount(fsConfig('[[enrich]]', 'tools = ["fs__write_file", "fs__move_*"]', 'drop = true'));
    const names = await listed(c);
    expect(names).toContain('fs__read_text_file');
    expect(names).not.toContain('fs__write_file');
    expect(names).not.toContain('fs__move_file');
    await expect(
      c.client.callTool({ name: 'fs__write_file', arguments: { path: join(dir, 'x.md'), content: 'x' } }),
    ).rejects.toMatchObject({ ...NOT_FOUND, message: expect.stringContaining('"fs__write_file"') });
    expect(c.host.checkRules().matched).toContain(
      '[[enrich]] #1 (line 4): drop → fs__write_file, fs__move_file',
    );
  });
});

describe('tools.allow and tools.deny', () => {
  it('deny globs over the plugin’s own names drop what they match', async () => {
    const c = await mount(fsConfig('tools.deny = ["write_*", "edit_*", "move_*", "create_*"]'));
    const names = await listed(c);
    expect(names.filter((name) => /write|edit|move|create/.test(name))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['fs__read_text_file', 'fs__list_directory']));
    await expect(c.client.callTool({ name: 'fs__edit_file', arguments: {} })).rejects.toMatchObject(
      NOT_FOUND,
    );
    expect(c.host.checkRules()).toMatchObject({
      matched: [
        '[plugins.fs] tools.deny (line 4): deny → write_file, edit_file, create_directory, move_file',
      ],
      problems: [],
    });
  });

  it('allow keeps only what it names, and deny wins over allow', async () => {
    const c = await mount(
      fsConfig('tools.allow = ["read_text_file", "list_*"]', 'tools.deny = ["list_allowed_directories"]'),
    );
    expect((await listed(c)).sort()).toEqual([
      'fs__list_directory',
      'fs__list_directory_with_sizes',
      'fs__read_text_file',
    ]);
    const read = await c.client.callTool({
      name: 'fs__read_text_file',
      arguments: { path: join(dir, 'notes.md') },
    });
    expect(textOf(read)).toContain('kept behind the rules');
    await expect(
      c.client.callTool({ name: 'fs__list_allowed_directories', arguments: {} }),
    ).rejects.toMatchObject(NOT_FOUND);
  });
});

describe('name = "…"', () => {
  const renamed = () =>
    fsConfig(
      '[[enrich]]',
      'tools = ["fs__read_text_file"]',
      'name = "read"',
      '',
      '[[enrich]]',
      'tools = ["fs__read"]',
      'rename = { path = "file" }',
      '',
      '[tools."fs__read"]',
      'side_effect = "read_only"',
    );

  it('publishes the tool under its new name behind the prefix; the old name is gone', async () => {
    const c = await mount(renamed());
    const names = await listed(c);
    expect(names).toContain('fs__read');
    expect(names).not.toContain('fs__read_text_file');
    // The later block names the tool by its new name, and its parameter rename maps back on the call.
    const tool = (await c.client.listTools()).tools.find((t) => t.name === 'fs__read');
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toContain('file');
    const read = await c.client.callTool({ name: 'fs__read', arguments: { file: join(dir, 'notes.md') } });
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toContain('kept behind the rules');
    await expect(
      c.client.callTool({ name: 'fs__read_text_file', arguments: { path: join(dir, 'notes.md') } }),
    ).rejects.toMatchObject(NOT_FOUND);
    expect(c.host.checkRules().matched).toEqual([
      '[[enrich]] #1 (line 4): name → fs__read_text_file as fs__read',
      '[[enrich]] #2 (line 8): rename → fs__read',
    ]);
  });

  it('the planner finds the renamed tool by its published name', async () => {
    const c = await mount(renamed());
    await listed(c);
    expect(c.host.planner.modelOf('fs__read')?.sideEffect).toBe('read_only');
    expect(c.host.planner.modelProblems()).toEqual([]);
  });
});

describe('rules that match nothing', () => {
  it('are reported with file and line, and logged as errors once the catalogs are known', async () => {
    const records: Record<string, unknown>[] = [];
    const c = await mount(
      fsConfig(
        'tools.deny = ["wrte_*"]',
        '[[enrich]]',
        'tools = ["fs__delete_*"]',
        'drop = true',
        '[[enrich]]',
        'tools = ["fs__read_text_file"]',
        'hide = ["head", "tial"]',
      ),
      records,
    );
    const problems = [
      `${FILE}:4: [plugins.fs] tools.deny: glob "wrte_*" matches none of the plugin's tools (${c.host.plugins.mountedPlugins()[0]?.toolNames.join(', ')})`,
      `${FILE}:5: [[enrich]] #1: tools glob "fs__delete_*" matches no tool`,
      `${FILE}:8: [[enrich]] #2: hide "tial" is a parameter of none of its tools (fs__read_text_file)`,
    ];
    expect(c.host.checkRules().problems).toEqual(problems);
    await vi.waitFor(() =>
      expect(records.filter((r) => r.level === 'error').map((r) => r.msg)).toEqual(
        problems.map((problem) => `tool rule matches nothing: ${problem}`),
      ),
    );
  });

  it('are not checked against a plugin that is not ready, and the report says so', async () => {
    const c = await mount(
      fsConfig(
        '[plugins.gone]',
        'use = "upstream"',
        'command = ["/nonexistent/mcp-server"]',
        'tools.deny = ["write_*"]',
        '[[enrich]]',
        'tools = ["gone__*"]',
        'hide = ["path"]',
      ),
    );
    const report = c.host.checkRules();
    expect(report.problems).toEqual([]);
    expect(report.unchecked).toEqual([
      '[plugins.gone] tools.deny (line 7): not checked: plugin gone is down',
      '[[enrich]] #1 (line 8): tools glob "gone__*": not checked: plugin gone is down',
    ]);
  });
});
