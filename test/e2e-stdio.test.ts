// End to end over stdio with an old client: the built CLI, spawned by SDK 1.x's StdioClientTransport, serves the
// workspace plugin to a real SDK 1.x Client, and exits 0 when the client closes stdin. This file deliberately
// stays on the SDK 1.x client (@modelcontextprotocol/sdk 1.32.2) to prove that an old legacy client still works;
// the rest of the suite drives Foresight through the SDK v2 Client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  RawStdioClient,
  START_LINE,
  START_TIMEOUT_MS,
  type SpawnOptions,
  StdioServerWatch,
  WORKSPACE_FILES,
  cliStdioParameters,
  killAll,
  makeWorkspace,
  removeWorkspaces,
  spawnCli,
  textOf,
  withTimeout,
} from './support/cli.js';

/** SDK 1.x's stdio client transport running the built CLI, watched like the suite's v2 one. */
class LegacyStdioClientTransport extends StdioClientTransport {
  readonly watch: StdioServerWatch;

  constructor(options: SpawnOptions & { args?: readonly string[] }) {
    super(cliStdioParameters(options));
    this.watch = new StdioServerWatch(this.stderr);
  }

  override async start(): Promise<void> {
    await super.start();
    this.watch.follow(this);
  }
}

const WORKSPACE_TOOLS = [
  'workspace__glob',
  'workspace__grep',
  'workspace__list_directory',
  'workspace__read_file',
];

async function connectStdio(): Promise<{ client: Client; transport: LegacyStdioClientTransport }> {
  const root = await makeWorkspace();
  const transport = new LegacyStdioClientTransport({ cwd: root, args: ['serve'] });
  const client = new Client({ name: 'e2e-legacy-sdk', version: '1.32.2' });
  await withTimeout(client.connect(transport), START_TIMEOUT_MS, 'the stdio client to initialize');
  return { client, transport };
}

describe('foresight serve over stdio, to an SDK 1.x client', () => {
  // One server answers the read-only checks; none of them changes its state.
  let transport: LegacyStdioClientTransport;
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
    const match = await transport.watch.waitForStderr(START_LINE);
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
    expect(await transport.watch.exited()).toEqual({ code: 0, signal: null });
    // The log names stdin as the reason, so this was not the SDK's SIGTERM fallback.
    expect(transport.watch.stderrSoFar()).toMatch(/"why":"stdin closed".*"msg":"shutting down"/);
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
