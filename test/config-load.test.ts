import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS, loadConfig } from '../src/config/index.js';
import { ForesightError } from '../src/contract/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'foresight-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  test('without a file serves the workspace plugin on cwd, everything else at defaults', async () => {
    const config = await loadConfig({ cwd: dir, env: {} });
    expect(config.file).toBeUndefined();
    expect(config.baseDir).toBe(dir);
    expect(config.server).toEqual({
      transport: 'stdio',
      http: { host: '127.0.0.1', port: 3000 },
      allowedHosts: [],
      allowedOrigins: [],
      allowUnauthenticated: false,
      logLevel: 'info',
      legacyClients: 'serve',
      requestStateTtlS: 300,
      tasks: { afterMs: 1_000, ttlMs: 3_600_000, pollIntervalMs: 1_000, maxTasks: 1_000 },
      ops: { metrics: false, metricsPublic: false, drainTimeoutS: 10 },
      limits: DEFAULT_LIMITS,
    });
    expect(config.plugins).toHaveLength(1);
    expect(config.plugins[0]).toMatchObject({
      name: 'workspace',
      origin: { type: 'builtin', kind: 'workspace' },
      prefix: 'workspace',
      enabled: true,
      isolation: 'inline',
      cache: { ttlMs: 0, scope: 'private' },
      options: { root: dir },
      baseDir: dir,
      deadlinesMs: {
        callTool: 30_000,
        readResource: 30_000,
        getPrompt: 30_000,
        complete: 30_000,
        start: 10_000,
        shutdown: 10_000,
        task: 600_000,
      },
    });
    expect(config.enrich).toEqual([]);
    expect(config.planner).toEqual({
      enabled: true,
      probabilityFloor: 0.3,
      maxWastePerHit: 2,
      tokenBudget: 4000,
      maxInFlight: 4,
      perHostInFlight: 2,
      defaultTtlS: 60,
      thinkWindowS: 30,
      defaultFollowupProbability: 0.5,
      learning: true,
    });
    expect(config.planner).not.toHaveProperty('stateFile');
    expect(config.tools).toEqual({});
  });

  test('reads foresight.toml from cwd when present', async () => {
    await writeFile(join(dir, 'foresight.toml'), '[plugins.notes]\nuse = "workspace"\nroot = "notes"\n');
    const config = await loadConfig({ cwd: dir, env: {} });
    expect(config.file).toBe(join(dir, 'foresight.toml'));
    expect(config.plugins.map((entry) => entry.name)).toEqual(['notes']);
    expect(config.plugins[0]?.line).toBe(1);
  });

  test('reads an explicit file relative to cwd; its directory is the base directory', async () => {
    await mkdir(join(dir, 'conf'));
    await writeFile(join(dir, 'conf', 'mine.toml'), '[plugins.demo]\nmodule = "./demo.mjs"\n');
    const config = await loadConfig({ cwd: dir, file: 'conf/mine.toml', env: {} });
    expect(config.baseDir).toBe(join(dir, 'conf'));
    expect(config.plugins[0]?.origin).toEqual({ type: 'module', path: join(dir, 'conf', 'demo.mjs') });
  });

  test("[planner] state_file resolves against the config file's directory, not cwd", async () => {
    await mkdir(join(dir, 'conf'));
    await writeFile(join(dir, 'conf', 'mine.toml'), '[planner]\nstate_file = "../data/state.json"\n');
    const config = await loadConfig({ cwd: dir, file: 'conf/mine.toml', env: {} });
    expect(config.planner.stateFile).toBe(join(dir, 'data', 'state.json'));
    expect(config.planner.learning).toBe(true);
  });

  test('[planner] an absolute state_file is kept as written', async () => {
    const absolute = join(dir, 'elsewhere', 'planner.json');
    await writeFile(
      join(dir, 'foresight.toml'),
      `[planner]\nlearning = false\nstate_file = ${JSON.stringify(absolute)}\n`,
    );
    const config = await loadConfig({ cwd: dir, env: {} });
    expect(config.planner).toMatchObject({ learning: false, stateFile: absolute });
  });

  test('an explicit file that does not exist is E_CONFIG_FILE_MISSING naming it', async () => {
    const error = await loadConfig({ cwd: dir, file: 'nope.toml', env: {} }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ForesightError);
    expect(error).toMatchObject({ code: 'E_CONFIG_FILE_MISSING', kind: 'not_found' });
    expect((error as Error).message).toContain(join(dir, 'nope.toml'));
  });

  test('an explicit path that is a directory is E_CONFIG_UNREADABLE', async () => {
    await mkdir(join(dir, 'folder.toml'));
    await expect(loadConfig({ cwd: dir, file: 'folder.toml', env: {} })).rejects.toMatchObject({
      code: 'E_CONFIG_UNREADABLE',
    });
  });
});
