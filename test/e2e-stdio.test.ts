// End to end over stdio: the built CLI, spawned by the SDK's StdioClientTransport, serves the workspace
// plugin to a real SDK Client, and exits 0 when the client closes stdin.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ObservedStdioClientTransport,
  RawStdioClient,
  START_LINE,
  START_TIMEOUT_MS,
  WORKSPACE_FILES,
  killAll,
  makeWorkspace,
  newClient,
  removeWorkspaces,
  spawnCli,
  textOf,
  withTimeout,
} from './support/cli.js';

const WORKSPACE_TOOLS = [
  'workspace__glob',
  'workspace__grep',
  'workspace__list_directory',
  'workspace__read_file',
];

async function connectStdio(): Promise<{ client: Client; transport: ObservedStdioClientTransport }> {
  const root = await makeWorkspace();
  const transport = new ObservedStdioClientTransport({ cwd: root, args: ['serve'] });
  const client = newClient();
  await withTimeout(client.connect(transport), START_TIMEOUT_MS, 'the stdio client to initialize');
  return { client, transport };
}

describe('foresight serve over stdio', () => {
  // One server answers the read-only checks; none of them changes its state.
  let transport: ObservedStdioClientTransport;
  let client: Client;

  beforeAll(async () => {
    ({ client, transport } = await connectStdio());
  });

  afterAll(async () => {
    await client.close().catch(() => {});
    await killAll();
    await removeWorkspaces();
  });

  it('initializes as foresight and prints one start line on stderr', async () => {
    expect(client.getServerVersion()?.name).toBe('foresight');
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, completions: {} });
    const match = await transport.waitForStderr(START_LINE);
    expect(match.slice(1)).toEqual(['1', 'workspace', '4', 'stdio']);
  });

  it('lists exactly the four workspace tools, all read-only', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(WORKSPACE_TOOLS);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.inputSchema.type, tool.name).toBe('object');
    }
  });

  it('globs and reads real files of the workspace', async () => {
    const glob = await client.callTool({ name: 'workspace__glob', arguments: { pattern: '**/*.ts' } });
    expect(glob.isError).toBeFalsy();
    expect(glob.structuredContent).toEqual({ paths: ['src/index.ts', 'src/util.ts'], truncated: false });
    expect(textOf(glob).split('\n')).toEqual(['src/index.ts', 'src/util.ts']);

    const read = await client.callTool({ name: 'workspace__read_file', arguments: { path: 'src/util.ts' } });
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toContain('return n * 2;');
    expect(textOf(read)).not.toContain('answer = 42');
  });

  it('publishes the file template, reads a file through it and completes its path argument', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['workspace://file/{path}']);

    const read = await client.readResource({ uri: 'workspace://file/notes.md' });
    expect(read.contents).toHaveLength(1);
    expect(read.contents[0]).toMatchObject({
      uri: 'workspace://file/notes.md',
      text: WORKSPACE_FILES['notes.md'],
    });

    const ref = { type: 'ref/resource' as const, uri: 'workspace://file/{path}' };
    const top = await client.complete({ ref, argument: { name: 'path', value: 'n' } });
    expect(top.completion.values).toEqual(['notes.md']);
    const nested = await client.complete({ ref, argument: { name: 'path', value: 'src/u' } });
    expect(nested.completion.values).toEqual(['src/util.ts']);
    const all = await client.complete({ ref, argument: { name: 'path', value: '' } });
    expect(all.completion.values).toEqual(expect.arrayContaining(['a.txt', 'notes.md', 'src/']));
  });
});

describe('foresight serve over stdio, shutdown', () => {
  afterEach(async () => {
    await killAll();
    await removeWorkspaces();
  });

  it('exits with code 0 when the client closes stdin', async () => {
    const { client, transport } = await connectStdio();
    expect((await client.listTools()).tools).toHaveLength(4);
    await client.close();
    expect(await transport.exited()).toEqual({ code: 0, signal: null });
    // The log names stdin as the reason, so this was not the SDK's SIGTERM fallback.
    expect(transport.stderrSoFar()).toMatch(/"why":"stdin closed".*"msg":"shutting down"/);
  });

  it('answers requests it has read before stdin closed, then exits 0', async () => {
    const cwd = await makeWorkspace();
    const proc = spawnCli(['serve'], { cwd });
    const raw = new RawStdioClient(proc);
    await proc.waitForStderr(START_LINE);
    await raw.initialize();
    // The request and the end of input arrive together: the answer must still come before the exit.
    await raw.sendLine(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'workspace__read_file', arguments: { path: 'notes.md' } },
      }),
    );
    proc.child.stdin?.end();
    const answer = await raw.next((message) => message.id === 7);
    expect(textOf(answer.result as object)).toBe(WORKSPACE_FILES['notes.md']);
    expect(await proc.waitForExit()).toEqual({ code: 0, signal: null });
  });
});
