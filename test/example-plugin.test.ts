// The example plugin (examples/notes-plugin.mjs), mounted from its path through foresight.toml as a user would.
// The plugin imports 'foresight', which resolves to dist/, and the worker test runs the compiled host:
// run `npm run build` first.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CallToolRequestOptions,
  type CallToolResult,
  Client,
  InMemoryTransport,
} from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHost as createCompiledHost } from '../dist/create-host.js';
import { loadConfig } from '../src/config/index.js';
import { createHost } from '../src/create-host.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';
import { PLANNER_STATS_URI } from '../src/planner/index.js';

const examplePath = fileURLToPath(new URL('../examples/notes-plugin.mjs', import.meta.url));
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  isolation?: 'inline' | 'worker';
  /** Extra lines for the [plugins.notes] table. */
  lines?: string[];
  /** Reuse a directory (and so its store) from an earlier setup. */
  dir?: string;
}

/** Writes foresight.toml into a temp dir and loads it the way the CLI does. */
async function writeConfig({ isolation = 'inline', lines = [], dir }: Setup) {
  const root = dir ?? (await mkdtemp(join(tmpdir(), 'foresight-notes-')));
  if (!dir) cleanups.push(() => rm(root, { recursive: true, force: true }));
  const store = join(root, 'notes.json');
  const file = join(root, 'foresight.toml');
  await writeFile(
    file,
    [
      '[plugins.notes]',
      `module = ${JSON.stringify(examplePath)}`,
      `store = ${JSON.stringify(store)}`,
      ...(isolation === 'worker' ? ['isolation = "worker"'] : []),
      ...lines,
      '',
    ].join('\n'),
  );
  return { root, store, config: await loadConfig({ file, cwd: root }) };
}

async function start(setup: Setup = {}) {
  const { root, store, config } = await writeConfig(setup);
  const logger = createMemoryLogger();
  const make = setup.isolation === 'worker' ? createCompiledHost : createHost;
  const host = make({ config, logger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await host.connect(serverSide);
  // A client that can answer elicitation, as delete_note asks for a confirmation.
  const client = new Client({ name: 'notes-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { delete: true },
  }));
  await client.connect(clientSide);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await client.close();
    await host.close();
  };
  cleanups.push(close);
  return { root, store, host, client, records: logger.records, close };
}

type Started = Awaited<ReturnType<typeof start>>;

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options?: CallToolRequestOptions,
): Promise<CallToolResult> {
  return client.callTool({ name, arguments: args }, options);
}

async function addNote(client: Client, title: string, tags: string[] = []) {
  return call(client, 'notes__add_note', { title, body: `About ${title}.`, tags });
}

function logged(records: Record<string, unknown>[], msg: string) {
  return records.filter((r) => r.msg === msg);
}

/** Progress, then cancellation: the second export is aborted at its first progress notification. */
async function progressAndCancel({ client, records }: Started) {
  const progress: { progress: number; total?: number; message?: string }[] = [];
  const exported = await call(client, 'notes__export_notes', {}, { onprogress: (p) => progress.push(p) });
  expect(textOf(exported)).toContain('# Alpha');
  expect(progress.map((p) => [p.progress, p.total])).toEqual([
    [1, 3],
    [2, 3],
    [3, 3],
  ]);
  expect(progress[0]?.message).toBe('exported "Alpha"');

  const controller = new AbortController();
  const cancelled = call(
    client,
    'notes__export_notes',
    {},
    {
      signal: controller.signal,
      onprogress: () => controller.abort('user pressed stop'),
    },
  );
  await expect(cancelled).rejects.toThrow();
  // The plugin saw its signal abort and logged why, well before its paced export would have ended.
  await vi.waitFor(() => expect(logged(records, 'export stopped')).toHaveLength(1));
  const stopped = logged(records, 'export stopped')[0];
  expect(stopped).toMatchObject({ plugin: 'notes', done: 1, of: 3 });
  expect(String(stopped?.reason)).toContain('cancelled by the client');
}

describe('the example notes plugin, mounted from foresight.toml', () => {
  it('publishes its tools, resources, template and prompt under the instance prefix', async () => {
    const { client } = await start();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'notes__add_note',
      'notes__list_notes',
      'notes__get_note',
      'notes__delete_note',
      'notes__export_notes',
    ]);
    const readOnly = tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name);
    expect(readOnly).toEqual(['notes__list_notes', 'notes__get_note', 'notes__export_notes']);
    expect(tools[0]?.inputSchema.properties?.title).toMatchObject({
      description: 'One-line title, shown in lists.',
    });

    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([
      PLANNER_STATS_URI,
      'notes://index',
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'notes://note/{id}',
    ]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['notes__summarize_notes']);
  });

  it('adds a note: a link in its scheme, list_changed, and resources/updated for a subscribed URI', async () => {
    const { client } = await start();
    const listChanged = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/resources/list_changed', () => resolve()),
    );
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: 'notes://index' });

    const added = await addNote(client, 'Alpha', ['work']);
    expect(added.isError).toBeFalsy();
    expect(added.content).toContainEqual(
      expect.objectContaining({ type: 'resource_link', uri: 'notes://note/1' }),
    );

    await listChanged;
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([
      PLANNER_STATS_URI,
      'notes://index',
      'notes://note/1',
    ]);
    await vi.waitFor(() => expect(updated).toEqual(['notes://index']));

    const listed = await call(client, 'notes__list_notes', { tag: 'work' });
    expect(listed.structuredContent).toEqual({ notes: [{ id: '1', title: 'Alpha', tags: ['work'] }] });
  });

  it("reports tool errors as results: its own not_found, and the host's schema check", async () => {
    const { client } = await start();
    const missing = await call(client, 'notes__get_note', { id: '99' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe('no note "99"; list_notes shows the ids in use');
    expect(missing._meta).toEqual({ 'foresight/error': { code: 'E_PLUGIN_REPORTED', kind: 'not_found' } });

    const noBody = await call(client, 'notes__add_note', { title: 'x' });
    expect(noBody.isError).toBe(true);
    expect(textOf(noBody)).toContain('missing required parameter "body"');
  });

  it('reads a note through the template, completes its id, and answers -32002 for an unknown one', async () => {
    const { client } = await start();
    for (const title of ['Alpha', 'Beta', 'Gamma']) await addNote(client, title);

    const read = await client.readResource({ uri: 'notes://note/2' });
    expect(read.contents).toEqual([
      { uri: 'notes://note/2', mimeType: 'text/markdown', text: '# Beta\n\nAbout Beta.\n' },
    ]);

    const ref = { type: 'ref/resource' as const, uri: 'notes://note/{id}' };
    const all = await client.complete({ ref, argument: { name: 'id', value: '' } });
    expect(all.completion).toEqual({ values: ['1', '2', '3'], total: 3, hasMore: false });
    const two = await client.complete({ ref, argument: { name: 'id', value: '2' } });
    expect(two.completion.values).toEqual(['2']);

    await expect(client.readResource({ uri: 'notes://note/42' })).rejects.toMatchObject({ code: -32002 });
  });

  it("gets the prompt with notes embedded in its scheme, and completes the prompt's arguments", async () => {
    const { client } = await start();
    await addNote(client, 'Alpha', ['work']);
    await addNote(client, 'Beta', ['home']);
    await addNote(client, 'Gamma', ['work', 'q3']);

    const prompt = await client.getPrompt({ name: 'notes__summarize_notes', arguments: { tag: 'work' } });
    expect(prompt.messages[0]?.content).toEqual({
      type: 'text',
      text: 'Summarize the following notes as a short bulleted list.',
    });
    const embedded = prompt.messages
      .slice(1)
      .map((m) => (m.content as { resource: { uri: string } }).resource.uri);
    expect(embedded).toEqual(['notes://note/1', 'notes://note/3']);

    const ref = { type: 'ref/prompt' as const, name: 'notes__summarize_notes' };
    expect((await client.complete({ ref, argument: { name: 'tag', value: '' } })).completion.values).toEqual([
      'home',
      'q3',
      'work',
    ]);
    expect((await client.complete({ ref, argument: { name: 'tag', value: 'w' } })).completion.values).toEqual(
      ['work'],
    );
    expect(
      (await client.complete({ ref, argument: { name: 'style', value: 'p' } })).completion.values,
    ).toEqual(['paragraph']);

    await expect(
      client.getPrompt({ name: 'notes__summarize_notes', arguments: { tag: 'nope' } }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('no notes tagged "nope"') });
  });

  it('reports progress from the slow export, and stops it when the client cancels', async () => {
    const started = await start({ lines: ['export_pace_ms = 200'] });
    const logs: unknown[] = [];
    started.client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params.data));
    for (const title of ['Alpha', 'Beta', 'Gamma']) await addNote(started.client, title);
    await progressAndCancel(started);
    expect(logs).toContainEqual({ exported: 3 });
  });

  it('asks the user before deleting, through elicitation', async () => {
    const { client } = await start();
    await addNote(client, 'Alpha');
    const deleted = await call(client, 'notes__delete_note', { id: '1' });
    expect(textOf(deleted)).toBe('Deleted note 1: Alpha');
    expect((await call(client, 'notes__get_note', { id: '1' })).isError).toBe(true);
  });

  it('autosaves in the background, and close() runs shutdown(): the task stops and the notes are on disk', async () => {
    const first = await start({ lines: ['autosave_ms = 20'] });
    expect(logged(first.records, 'autosave started')).toHaveLength(1);
    await addNote(first.client, 'Alpha');
    await vi.waitFor(() =>
      expect(logged(first.records, 'notes saved')).toContainEqual(
        expect.objectContaining({ reason: 'autosave' }),
      ),
    );
    await addNote(first.client, 'Beta');

    await first.close();
    expect(logged(first.records, 'autosave stopped')).toEqual([
      expect.objectContaining({ plugin: 'notes', notes: 2 }),
    ]);
    const saved = JSON.parse(await readFile(first.store, 'utf8')) as { notes: { title: string }[] };
    expect(saved.notes.map((n) => n.title)).toEqual(['Alpha', 'Beta']);

    // A new host on the same store starts with the saved notes.
    const second = await start({ dir: first.root });
    expect(textOf(await call(second.client, 'notes__list_notes', {}))).toBe('1  Alpha\n2  Beta');
  });

  it('rejects a bad option at start-up with a message that names the plugin and the option', async () => {
    const { config } = await writeConfig({ lines: ['autosave_ms = "often"'] });
    const host = createHost({ config, logger: createMemoryLogger() });
    await expect(host.start()).rejects.toThrow(
      'plugin "notes" failed to build: option "autosave_ms" must be an integer of at least 10 (got "often")',
    );
    await host.close();
  });
});

describe('the example notes plugin with isolation = "worker"', () => {
  it('serves the same calls from a worker thread and shuts it down on close()', async () => {
    const started = await start({ isolation: 'worker', lines: ['export_pace_ms = 200', 'autosave_ms = 20'] });
    const { client, records } = started;
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('notes__export_notes');

    for (const title of ['Alpha', 'Beta', 'Gamma']) await addNote(client, title, ['work']);
    expect((await client.readResource({ uri: 'notes://note/3' })).contents[0]).toMatchObject({
      uri: 'notes://note/3',
      text: expect.stringContaining('# Gamma'),
    });
    const ref = { type: 'ref/resource' as const, uri: 'notes://note/{id}' };
    expect((await client.complete({ ref, argument: { name: 'id', value: '' } })).completion.values).toEqual([
      '1',
      '2',
      '3',
    ]);
    const prompt = await client.getPrompt({
      name: 'notes__summarize_notes',
      arguments: { style: 'paragraph' },
    });
    expect(prompt.messages).toHaveLength(4);

    await progressAndCancel(started);
    // The plugin's log records cross from the thread, tagged as such.
    expect(logged(records, 'export stopped')[0]).toMatchObject({ isolation: 'worker' });

    await started.close();
    expect(logged(records, 'autosave stopped')).toEqual([
      expect.objectContaining({ isolation: 'worker', notes: 3 }),
    ]);
    const saved = JSON.parse(await readFile(started.store, 'utf8')) as { notes: unknown[] };
    expect(saved.notes).toHaveLength(3);
  });
});
