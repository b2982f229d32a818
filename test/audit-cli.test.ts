// `foresight serve` with [audit] on and no file: the audit lines share stderr with pino's records, and every
// stderr line stays one JSON object.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectHttp, killAll, makeWorkspace, removeWorkspaces, startHttpServer } from './support/cli.js';

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
