// Every configured duration stops at the timer limit (2^31-1 ms): beyond it Node fires the timer after 1 ms with a
// TimeoutOverflowWarning, so `deadline_ms = 3000000000` meant a deadline hit at once, thousands of times a second.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, validatePluginOptions } from '../src/config/index.js';
import { clampDelay, ForesightError, MAX_DELAY_MS, MAX_DELAY_S } from '../src/contract/index.js';
import { abortableSleep } from '../src/plugins/kit/index.js';
import { UpstreamOptionsSchema } from '../src/plugins/upstream/index.js';
import { killAll, makeWorkspace, removeWorkspaces, runCli } from './support/cli.js';

afterEach(async () => {
  await killAll();
  await removeWorkspaces();
});

const LIMIT_MS = 'from 1 to 2147483647 (the timer limit, about 24.8 days)';

/** A workspace holding foresight.toml with `text`; returns the directory and the file. */
async function configFile(text: string): Promise<{ cwd: string; file: string }> {
  const cwd = await makeWorkspace({ 'foresight.toml': text });
  return { cwd, file: path.join(cwd, 'foresight.toml') };
}

/** The error loading `text` as foresight.toml gives. */
async function loadFailure(text: string): Promise<ForesightError & { file?: string }> {
  const { cwd, file } = await configFile(text);
  const failure = await loadConfig({ cwd, env: {} }).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(failure instanceof ForesightError))
    throw new Error(`expected a config error, got ${String(failure)}`);
  return Object.assign(failure, { file });
}

describe('the attack: deadline_ms = 3000000000', () => {
  it('is a config error naming the file, the line, the key and the allowed range', async () => {
    const text = '[plugins.workspace]\nroot = "."\ndeadline_ms = 3000000000\n';
    const error = await loadFailure(text);
    expect(error.code).toBe('E_CONFIG_INVALID');
    expect(error.message).toBe(
      `${error.file}:3: plugins.workspace.deadline_ms: expected a whole number of milliseconds ${LIMIT_MS}, got 3000000000`,
    );
  });

  it('makes `foresight check` exit non-zero with that message', async () => {
    const { cwd, file } = await configFile('[plugins.workspace]\nroot = "."\ndeadline_ms = 3000000000\n');
    const run = await runCli(['check'], { cwd });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      `${file}:3: plugins.workspace.deadline_ms: expected a whole number of milliseconds ${LIMIT_MS}, got 3000000000`,
    );
    expect(run.stdout).not.toContain('config is valid');
  });

  it('accepts the limit itself', async () => {
    const { cwd } = await configFile(`[plugins.workspace]\nroot = "."\ndeadline_ms = ${MAX_DELAY_MS}\n`);
    const config = await loadConfig({ cwd, env: {} });
    expect(config.plugins[0]?.deadlinesMs.callTool).toBe(MAX_DELAY_MS);
  });
});

describe('every duration key has the limit', () => {
  const over = MAX_DELAY_MS + 1;
  const overS = MAX_DELAY_S + 1;
  it.each([
    [
      '[plugins.workspace]',
      `deadlines_ms = { call_tool = ${over} }`,
      'plugins.workspace.deadlines_ms.call_tool',
    ],
    [
      '[plugins.workspace]',
      `deadlines_ms = { shutdown = ${over} }`,
      'plugins.workspace.deadlines_ms.shutdown',
    ],
    ['[plugins.workspace]', `deadlines_ms = { task = ${over} }`, 'plugins.workspace.deadlines_ms.task'],
    ['[plugins.workspace]', `cache_ttl_ms = ${over}`, 'plugins.workspace.cache_ttl_ms'],
    ['[server]', `task_ttl_ms = ${over}`, 'server.task_ttl_ms'],
    ['[server]', `task_after_ms = ${over}`, 'server.task_after_ms'],
    ['[server]', `task_poll_interval_ms = ${over}`, 'server.task_poll_interval_ms'],
    ['[server]', `request_state_ttl_s = ${overS}`, 'server.request_state_ttl_s'],
    ['[server]', `drain_timeout_s = ${overS}`, 'server.drain_timeout_s'],
    ['[planner]', `default_ttl_s = ${overS}`, 'planner.default_ttl_s'],
    ['[planner]', `think_window_s = ${overS}`, 'planner.think_window_s'],
    ['[tools."*"]', `freshness_ttl_s = ${overS}`, 'tools."*".freshness_ttl_s'],
    ['[tools."*"]', `latency_ms_p50 = ${over}`, 'tools."*".latency_ms_p50'],
  ])('%s %s', async (table, line, key) => {
    const error = await loadFailure(`${table}\n${line}\n`);
    expect(error.message).toMatch(/foresight\.toml:2: /);
    expect(error.message).toContain(`${key}: expected a`);
    expect(error.message).toMatch(/of (milliseconds|seconds) from \d+ to \d+/);
  });

  it('names the seconds limit for a seconds key with no tighter bound', async () => {
    const error = await loadFailure(`[planner]\ndefault_ttl_s = ${MAX_DELAY_S + 1}\n`);
    expect(error.message).toContain(
      `planner.default_ttl_s: expected a whole number of seconds from 1 to ${MAX_DELAY_S} (the timer limit, about 24.8 days), got ${MAX_DELAY_S + 1}`,
    );
  });

  it("holds for a plugin's own options too (the upstream plugin's restart delays)", async () => {
    const { cwd } = await configFile(
      `[plugins.up]\nuse = "upstream"\nurl = "http://127.0.0.1:9/mcp"\nmax_restart_delay_ms = 3000000000\n`,
    );
    const config = await loadConfig({ cwd, env: {} });
    const entry = config.plugins.find((plugin) => plugin.name === 'up');
    if (!entry) throw new Error('no upstream entry');
    expect(() => validatePluginOptions(entry, UpstreamOptionsSchema)).toThrow(
      /foresight\.toml:4: plugins\.up\.max_restart_delay_ms: expected a whole number of milliseconds from 0 to 2147483647 \(the timer limit, about 24\.8 days\), got 3000000000/,
    );
  });
});

describe('delays computed from data stay within the limit', () => {
  it('clampDelay keeps a delay between 0 and the limit', () => {
    expect(clampDelay(3_000_000_000)).toBe(MAX_DELAY_MS);
    expect(clampDelay(Number.POSITIVE_INFINITY)).toBe(MAX_DELAY_MS);
    expect(clampDelay(-5)).toBe(0);
    expect(clampDelay(Number.NaN)).toBe(0);
    expect(clampDelay(1_500)).toBe(1_500);
  });

  it('a wait as long as a hostile Retry-After asks does not overflow the timer', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const stop = new AbortController();
      const waiting = abortableSleep(3_000_000_000, stop.signal);
      stop.abort(new Error('stopped'));
      await expect(waiting).rejects.toThrow('stopped');
      // Node emits the warning on a later tick than the setTimeout that overflowed.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'TimeoutOverflowWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
