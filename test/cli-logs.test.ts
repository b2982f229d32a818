// What the CLI writes to stderr: `serve` only JSON records (its ready line, Node's warnings and its last error too),
// the one-shot commands text lines; the level from --log-level, else FORESIGHT_LOG_LEVEL, else the default.
import { afterEach, describe, expect, it } from 'vitest';
import { WORKSPACE_FILES, killAll, makeWorkspace, removeWorkspaces, runCli } from './support/cli.js';

afterEach(async () => {
  await killAll();
  await removeWorkspaces();
});

/** A module plugin that logs at every level when it starts and makes Node print a process warning. */
const CHATTY_PLUGIN = `
export default {
  id: 'chatty',
  version: '1.0.0',
  build(ctx) {
    return {
      tools: () => [{ name: 'noop', inputSchema: { type: 'object' } }],
      callTool: async () => ({ content: [] }),
      async start() {
        ctx.logger.debug({ step: 1 }, 'chatty debug record');
        ctx.logger.info({ step: 2 }, 'chatty info record');
        ctx.logger.warn({ step: 3 }, 'chatty warn record');
        process.emitWarning('chatty plugin made a process warning', 'ChattyWarning');
      },
    };
  },
};
`;

async function chattyWorkspace(): Promise<string> {
  return makeWorkspace({
    ...WORKSPACE_FILES,
    'chatty.mjs': CHATTY_PLUGIN,
    'foresight.toml': '[plugins.chatty]\nmodule = "./chatty.mjs"\n',
  });
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

/** The ready line: plugins, tools, the discovery mode and what the full list costs, the transport. */
const READY =
  /^1 plugin mounted \(chatty\), 1 tool, discovery: auto → all \(full tools\/list \d+ tokens <= auto_tokens 8,000\), serving stdio$/;

function records(stderr: string): Record<string, unknown>[] {
  return lines(stderr).map((line) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`stderr line is not JSON: ${line}`);
    }
  });
}

describe('serve writes JSON records only to stderr', () => {
  it('its ready line, the plugins’ records at FORESIGHT_LOG_LEVEL, a Node warning and its shutdown', async () => {
    const cwd = await chattyWorkspace();
    const run = await runCli(['serve'], { cwd, env: { FORESIGHT_LOG_LEVEL: 'debug' } });
    expect(run.code).toBe(0);
    const logged = records(run.stderr);
    const messages = logged.map((record) => record.msg);
    expect(messages).toContain('chatty debug record');
    expect(messages).toContainEqual(expect.stringMatching(READY));
    expect(messages).toContain('shutting down');
    expect(logged).toContainEqual(
      expect.objectContaining({ warning: 'ChattyWarning', detail: 'chatty plugin made a process warning' }),
    );
  });

  it('[server] log_level applies without the variable, and --log-level wins over it', async () => {
    const cwd = await chattyWorkspace();
    const byDefault = records(
      (await runCli(['serve'], { cwd, env: { FORESIGHT_LOG_LEVEL: undefined } })).stderr,
    );
    expect(byDefault.map((r) => r.msg)).toContain('chatty info record');
    expect(byDefault.map((r) => r.msg)).not.toContain('chatty debug record');
    const quiet = await runCli(['serve', '--log-level', 'error'], {
      cwd,
      env: { FORESIGHT_LOG_LEVEL: 'debug' },
    });
    const messages = records(quiet.stderr).map((r) => r.msg);
    expect(messages).not.toContain('chatty warn record');
    // The ready line shows at any level but silent: clients and scripts wait for it.
    expect(messages).toContainEqual(expect.stringMatching(READY));
    const silent = await runCli(['serve', '--log-level', 'silent'], { cwd });
    expect(silent.code).toBe(0);
    expect(silent.stderr).toBe('');
  });

  it('reports a failure to start as a JSON record too, and exits 1', async () => {
    const cwd = await makeWorkspace();
    const run = await runCli(['serve', '--config', 'missing.toml'], { cwd });
    expect(run.code).toBe(1);
    const [record] = records(run.stderr);
    expect(record).toMatchObject({ level: 50, msg: expect.stringMatching(/missing\.toml" does not exist/) });
  });
});

describe('the log level named on the command line or in the environment', () => {
  it('is refused with the allowed values when it is not a level (exit 2)', async () => {
    const cwd = await makeWorkspace();
    const fromEnv = await runCli(['tools'], { cwd, env: { FORESIGHT_LOG_LEVEL: 'chatty' } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain(
      'FORESIGHT_LOG_LEVEL is "chatty"; allowed: trace, debug, info, warn, error, fatal, silent',
    );
    const fromFlag = await runCli(['check', '--log-level', 'loud'], { cwd });
    expect(fromFlag.code).toBe(2);
    expect(fromFlag.stderr).toContain('--log-level is "loud"; allowed: trace');
  });
});

describe('the one-shot commands print log records as text for a person', () => {
  it('tools: info by default, as FORESIGHT_LOG_LEVEL says otherwise, none with --log-level silent', async () => {
    const cwd = await chattyWorkspace();
    const byDefault = await runCli(['tools'], { cwd });
    expect(byDefault.code).toBe(0);
    expect(byDefault.stdout).toMatch(/^chatty__noop/m);
    expect(lines(byDefault.stderr)).toContain('foresight: info [chatty] chatty info record (step=2)');
    expect(lines(byDefault.stderr)).toContain('foresight: warn [chatty] chatty warn record (step=3)');
    expect(byDefault.stderr).not.toContain('chatty debug record');
    for (const line of lines(byDefault.stderr)) expect(line).toMatch(/^foresight: /);

    const quieter = await runCli(['tools'], { cwd, env: { FORESIGHT_LOG_LEVEL: 'warn' } });
    expect(lines(quieter.stderr)).toContain('foresight: warn [chatty] chatty warn record (step=3)');
    expect(quieter.stderr).not.toContain('chatty info record');

    const silent = await runCli(['tools', '--log-level', 'silent'], {
      cwd,
      env: { FORESIGHT_LOG_LEVEL: 'debug' },
    });
    expect(silent.stderr).not.toContain('chatty');
  });
});
