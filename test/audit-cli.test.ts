// `foresight serve` with [audit] on: with no file the audit lines share stderr with pino's records, every stderr
// line still one JSON object; with a file (relative to the config) a stdio server appends to it and flushes it on exit.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import {
  StdioServerWatch,
  cliStdioParameters,
  connectHttp,
  killAll,
  makeWorkspace,
  removeWorkspaces,
  startHttpServer,
} from './support/cli.js';

afterAll(async () => {
  await killAll();
  await removeWorkspaces();
});

describe('foresight serve with [audit] to stderr', () => {
  it('writes audit lines beside the log records, every stderr line JSON', async () => {
    const root = await makeWorkspace();
    const config = join(root, 'foresight.toml');
    await writeFile(config, '[plugins.workspace]\nroot = "."\n\n[audit]\nenabled = true\n');
    const server = await startHttpServer({ cwd: root, config });
    const { client } = await connectHttp(server.url);
    await client.callTool({ name: 'workspace__read_file', arguments: { path: 'a.txt' } });
    await client.callTool({ name: 'workspace__read_file', arguments: { path: 'missing.txt' } });
    await client.close();
    server.child.kill('SIGTERM');
    expect((await server.waitForExit()).code).toBe(0);

    const lines = server
      .stderr()
      .split('\n')
      .filter((line) => line !== '');
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const audit = parsed.filter((record) => record.audit === true);
    expect(
      audit.map(({ tool, outcome, principal, transport }) => ({ tool, outcome, principal, transport })),
    ).toEqual([
      {
        tool: 'workspace__read_file',
        outcome: 'ok',
        principal: 'address:127.0.0.1',
        transport: 'http',
      },
      {
        tool: 'workspace__read_file',
        outcome: 'error',
        principal: 'address:127.0.0.1',
        transport: 'http',
      },
    ]);
    // pino's records carry a level; audit lines do not, so a reader can tell them apart either way.
    expect(parsed.filter((record) => record.audit !== true).every((record) => 'level' in record)).toBe(true);
    expect(audit.every((record) => !('level' in record))).toBe(true);
  });
});

describe('foresight serve over stdio with [audit] to a file', () => {
  it('appends one line per call to the file the config names, complete once the server has exited', async () => {
    const root = await makeWorkspace();
    const config = join(root, 'foresight.toml');
    await writeFile(
      config,
      '[plugins.workspace]\nroot = "."\n\n[audit]\nenabled = true\nfile = "audit.jsonl"\n',
    );
    const transport = new StdioClientTransport(
      cliStdioParameters({ cwd: root, args: ['serve', '--config', config] }),
    );
    const watch = new StdioServerWatch(transport.stderr);
    const client = new Client({ name: 'audit-test', version: '1.0.0' });
    await client.connect(transport);
    watch.follow(transport);
    await client.callTool({ name: 'workspace__read_file', arguments: { path: 'a.txt' } });
    await client.close();
    await watch.exited();
    const lines = (await readFile(join(root, 'audit.jsonl'), 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line.speculative === false)).toEqual([
      expect.objectContaining({
        audit: true,
        principal: 'local',
        tool: 'workspace__read_file',
        plugin: 'workspace',
        outcome: 'ok',
        transport: 'stdio',
      }),
    ]);
    // Nothing of the audit on stderr when it goes to a file.
    expect(watch.stderrSoFar()).not.toContain('"audit":true');
  });
});
