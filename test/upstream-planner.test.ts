// The planner over an upstream server: the real server-filesystem mounted over stdio on a temp dir, a
// config link fs__search_files → fs__read_text_file through the generic projection (`content | lines`),
// and side-effect classes taken from the server's MCP annotations, all seen by a real MCP client.
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import {
  PLANNER_STATS_URI,
  PREFETCH_META_KEY,
  type PlannerSnapshot,
  mayRunAhead,
} from '../src/planner/index.js';
import { type Connected, connect, connectClient, createMemoryLogger, textOf } from './support/in-memory.js';

const require = createRequire(import.meta.url);
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

/** Pinned into every speculative write that could slip through: finding it on disk would mean one ran. */
const PINNED = 'written through fs__write_file';
/** Each line of search_files is an absolute path; "No matches found" is not. */
const PATHS = 'content | lines | match(^/)';
const WAIT = { timeout: 15_000, interval: 50 };

let dir: string;
let connected: Connected | undefined;
const extraClients: Client[] = [];

beforeEach(async () => {
  // The server answers with real paths: a temp dir behind a symlink would not match them.
  dir = await realpath(await mkdtemp(join(tmpdir(), 'foresight-upstream-planner-')));
  await mkdir(join(dir, 'notes'));
  await writeFile(join(dir, 'notes', 'alpha.md'), '# alpha\nfirst note\n');
  await writeFile(join(dir, 'notes', 'beta.md'), '# beta\nsecond note\n');
  await writeFile(join(dir, 'notes', 'gamma.md'), '# gamma\nthird note\n');
  await writeFile(join(dir, 'readme.txt'), 'not a note\n');
});

afterEach(async () => {
  await Promise.all(extraClients.splice(0).map((client) => client.close()));
  await connected?.close();
  connected = undefined;
  await rm(dir, { recursive: true, force: true });
});

/**
 * search_files links to read_text_file, and also to write_file with certainty: with `content` pinned by
 * a declarative enricher, the projected `{ path }` is a complete, valid write, so only its side-effect
 * class (from its annotations) can keep the planner from running it ahead.
 */
function configToml(): string {
  return [
    '[plugins.fs]',
    'use = "upstream"',
    `command = ["node", ${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(dir)}]`,
    '',
    '[[enrich]]',
    'tools = ["fs__write_file"]',
    `pin = { content = ${JSON.stringify(PINNED)} }`,
    '',
    '[tools."fs__search_files"]',
    'follow_up = [',
    `  { tool = "fs__read_text_file", probability = 0.8, projection = '${PATHS}', projection_arg = "path" },`,
    `  { tool = "fs__write_file", probability = 1, projection = '${PATHS}', projection_arg = "path" },`,
    ']',
  ].join('\n');
}

async function start(logs: Record<string, unknown>[] = []): Promise<Connected> {
  connected = await connect({
    config: parseConfig(configToml(), '/proj/foresight.toml', '/proj'),
    logger: createMemoryLogger(logs),
    planner: { enabled: true, learning: false, probabilityFloor: 0.2, maxWastePerHit: Infinity },
  });
  // The upstream connects in the background: its tools arrive with list_changed.
  await vi.waitFor(async () => {
    const names = (await connected?.client.listTools())?.tools.map((tool) => tool.name);
    expect(names).toContain('fs__search_files');
  }, WAIT);
  return connected;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, textOf(result)).toBeFalsy();
  return result;
}

/** The stats resource, as any MCP client reads it. */
async function stats(client: Client): Promise<PlannerSnapshot> {
  const { contents } = await client.readResource({ uri: PLANNER_STATS_URI });
  const first = contents[0];
  if (!first || !('text' in first)) throw new Error('the stats resource has no text');
  return JSON.parse(first.text) as PlannerSnapshot;
}

/** Waits until the planner has run something ahead and nothing is running or waiting any more. */
async function settled(client: Client): Promise<PlannerSnapshot> {
  let snapshot: PlannerSnapshot | undefined;
  await vi.waitFor(async () => {
    snapshot = await stats(client);
    expect(snapshot.counters.dispatched).toBeGreaterThan(0);
    expect(snapshot.inFlight + snapshot.queued).toBe(0);
  }, WAIT);
  return snapshot as PlannerSnapshot;
}

/** The tools the planner started speculative calls of, from its debug log. */
function dispatchedTools(logs: Record<string, unknown>[]): unknown[] {
  return logs.filter((record) => record.msg === 'planner: dispatched').map((record) => record.tool);
}

async function secondClient(c: Connected): Promise<Client> {
  const client = await connectClient(c.host);
  extraClients.push(client);
  return client;
}

const withoutMeta = ({ _meta: _ignored, ...rest }: CallToolResult): CallToolResult => rest;

describe('planner over server-filesystem: side effects from annotations', () => {
  it('runs ahead the tools the server marks read-only, never those that write', async () => {
    const c = await start();
    const { tools } = await c.client.listTools();
    const annotations = new Map(tools.map((tool) => [tool.name, tool.annotations]));
    const models = new Map(tools.map((tool) => [tool.name, c.host.planner.modelOf(tool.name)]));

    for (const name of [
      'fs__read_text_file',
      'fs__search_files',
      'fs__list_directory',
      'fs__get_file_info',
    ]) {
      expect(annotations.get(name)?.readOnlyHint, name).toBe(true);
      expect(models.get(name)?.sideEffect, name).toBe('read_only');
      expect(mayRunAhead(models.get(name) ?? noModel(name)), name).toBe(true);
    }
    for (const name of ['fs__write_file', 'fs__edit_file', 'fs__move_file', 'fs__create_directory']) {
      expect(annotations.get(name)?.readOnlyHint, name).toBe(false);
      expect(models.get(name)?.sideEffect, name).toBe('mutates_external');
      expect(mayRunAhead(models.get(name) ?? noModel(name)), name).toBe(false);
    }
    // The config's block adds links to the annotation-derived model, and keeps its side effect.
    expect(models.get('fs__search_files')?.followUp.map((link) => link.tool)).toEqual([
      'fs__read_text_file',
      'fs__write_file',
    ]);
  });
});

describe('planner over server-filesystem: search_files → read_text_file', () => {
  it('reads ahead a file the search found, and serves the agent’s read of it from the planner', async () => {
    const logs: Record<string, unknown>[] = [];
    const c = await start(logs);
    const found = await call(c.client, 'fs__search_files', { path: dir, pattern: '**/*.md' });
    const paths = textOf(found).split('\n');
    expect([...paths].sort()).toEqual(['alpha', 'beta', 'gamma'].map((n) => join(dir, 'notes', `${n}.md`)));
    await settled(c.client);

    const first = paths[0] as string;
    const read = await call(c.client, 'fs__read_text_file', { path: first });
    expect(read._meta?.[PREFETCH_META_KEY]).toMatchObject({ source: 'cache' });
    expect((await stats(c.client)).counters.hits).toBe(1);

    // The same answer as a read the planner had no part in: another session, which has no cache entry.
    const direct = await call(await secondClient(c), 'fs__read_text_file', { path: first });
    expect(direct._meta?.[PREFETCH_META_KEY]).toBeUndefined();
    expect(withoutMeta(read)).toEqual(withoutMeta(direct));
    expect(textOf(read)).toBe(await readFile(first, 'utf8'));
    expect(dispatchedTools(logs).every((tool) => tool === 'fs__read_text_file')).toBe(true);
  });

  it('never runs a write ahead, and a write by the agent drops what was read ahead', async () => {
    const logs: Record<string, unknown>[] = [];
    const c = await start(logs);
    const found = await call(c.client, 'fs__search_files', { path: dir, pattern: '**/*.md' });
    const paths = textOf(found).split('\n');
    const { counters } = await settled(c.client);

    // The write link (probability 1) projected calls that fit write_file, and none ran: nothing was written.
    const unfit = logs.filter(
      (r) => r.msg === 'planner: a projected follow-up does not fit its tool; skipped',
    );
    expect(unfit).toEqual([]);
    expect(dispatchedTools(logs)).not.toContain('fs__write_file');
    expect(dispatchedTools(logs)).toHaveLength(counters.dispatched);
    for (const path of paths) expect(await readFile(path, 'utf8')).not.toContain(PINNED);

    // The agent's own write (mutating by its annotations, with no `invalidates`) drops the plugin's entries.
    const target = paths[0] as string;
    await call(c.client, 'fs__write_file', { path: target });
    expect(await readFile(target, 'utf8')).toBe(PINNED);
    const again = await call(c.client, 'fs__read_text_file', { path: target });
    expect(again._meta?.[PREFETCH_META_KEY]).toBeUndefined();
    expect(textOf(again)).toBe(PINNED);
    const after = await stats(c.client);
    expect(after.counters.hits).toBe(0);
    expect(after.counters.invalidated).toBe(counters.dispatched);
  });

  it('runs nothing ahead from a search that found nothing', async () => {
    const logs: Record<string, unknown>[] = [];
    const c = await start(logs);
    const none = await call(c.client, 'fs__search_files', { path: dir, pattern: '**/*.pdf' });
    expect(textOf(none)).toBe('No matches found');
    // Nothing to wait for after an empty search; but its planning ran (right after its answer) before the
    // next search's answer came back from the server, so once that one's read ahead is done, both are.
    await call(c.client, 'fs__search_files', { path: dir, pattern: 'notes/alpha.md' });
    const { counters } = await settled(c.client);
    expect(counters.dispatched).toBe(1);
    expect(logs.filter((r) => r.msg === 'planner: dispatched').map((r) => r.args)).toEqual([
      { path: join(dir, 'notes', 'alpha.md') },
    ]);
  });
});

function noModel(name: string): never {
  throw new Error(`${name} has no value model`);
}
