// The CLI's commands: serve, tools, call, check. Each loads the config and runs the full host.
import { type ForesightConfig, loadConfig, parseHttpAddress, resolveAuthToken } from '../config/index.js';
import { createHost, type ForesightHost } from '../create-host.js';
import { describeThrown, type LogLevel } from '../host/index.js';
import { connectInMemoryClient } from './in-memory-client.js';

export interface CommonOptions {
  config?: string;
  debug?: boolean;
}

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

async function load(options: CommonOptions): Promise<ForesightConfig> {
  return loadConfig({ file: options.config, cwd: process.cwd() });
}

/** Runs `fn` against a started host with a quiet logger and always shuts the host down. */
async function withHost<T>(options: CommonOptions, fn: (host: ForesightHost) => Promise<T>): Promise<T> {
  const config = await load(options);
  const level: LogLevel = options.debug ? 'debug' : 'warn';
  const host = createHost({
    config: { ...config, server: { ...config.server, logLevel: level } },
    debug: options.debug,
  });
  try {
    await host.start();
    return await fn(host);
  } finally {
    await host.close();
  }
}

function parseCliAddress(text: string) {
  const address = parseHttpAddress(text);
  if (!address)
    throw new CliError(
      `--http ${JSON.stringify(text)}: expected [host:]port, e.g. 3000 or 127.0.0.1:3000`,
      2,
    );
  return address;
}

export async function serveCommand(options: CommonOptions & { http?: string }): Promise<void> {
  const config = await load(options);
  const host = createHost({ config, debug: options.debug });
  const address =
    options.http !== undefined
      ? parseCliAddress(options.http)
      : config.server.transport === 'http'
        ? config.server.http
        : undefined;
  let stopping = false;
  const shutdown = async (why: string) => {
    if (stopping) return;
    stopping = true;
    host.logger.info({ why }, 'shutting down');
    await host.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await host.start();
  const mounted = host.plugins.mountedPlugins();
  const tools = host.tools.listTools().length;
  const summary = `${count(mounted.length, 'plugin')} mounted (${mounted.map((m) => m.name).join(', ')}), ${count(tools, 'tool')}`;
  try {
    if (address !== undefined) {
      const serving = await host.serveHttp({
        host: address.host,
        port: address.port,
        allowedHosts: config.server.allowedHosts,
        allowedOrigins: config.server.allowedOrigins,
        authToken: resolveAuthToken(config),
      });
      process.stderr.write(`foresight: ${summary}, serving Streamable HTTP on ${serving.url}\n`);
    } else {
      const serving = await host.serveStdio();
      process.stderr.write(`foresight: ${summary}, serving stdio\n`);
      void serving.closed.then(() => shutdown('stdin closed'));
    }
  } catch (error) {
    // The plugins are running (e.g. the port was taken): stop them in reverse order before reporting.
    stopping = true;
    await host.close();
    throw error;
  }
}

export async function toolsCommand(options: CommonOptions & { json?: boolean }): Promise<void> {
  await withHost(options, async (host) => {
    const client = await connectInMemoryClient(host);
    const { tools } = await client.listTools();
    if (options.json) {
      process.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
      return;
    }
    for (const tool of tools) {
      const summary = (tool.description ?? '').split('\n')[0];
      process.stdout.write(`${tool.name}${summary ? `  ${summary}` : ''}\n`);
    }
  });
}

export async function callCommand(
  tool: string,
  json: string | undefined,
  options: CommonOptions & { json?: boolean },
) {
  let args: Record<string, unknown> = {};
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (error) {
      throw new CliError(`arguments must be a JSON object: ${describeThrown(error)}`, 2);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new CliError('arguments must be a JSON object, e.g. \'{"path": "README.md"}\'', 2);
    }
    args = parsed as Record<string, unknown>;
  }
  await withHost(options, async (host) => {
    const client = await connectInMemoryClient(host);
    const result = await client.callTool({ name: tool, arguments: args });
    if (options.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      for (const block of result.content as { type: string; text?: string }[]) {
        process.stdout.write(block.type === 'text' ? `${block.text ?? ''}\n` : `${JSON.stringify(block)}\n`);
      }
    }
    if (result.isError) throw new CliError(`tool ${tool} reported an error`, 1);
  });
}

export async function checkCommand(options: CommonOptions): Promise<void> {
  await withHost(options, async (host) => {
    const mounted = host.plugins.mountedPlugins();
    for (const m of mounted) {
      process.stdout.write(`ok  ${m.name} (${m.id}), prefix ${JSON.stringify(m.prefix)}, ${m.tools} tools\n`);
    }
    const unlisted = host.tools.unlisted();
    for (const { message } of unlisted.filter((u) => u.reason === 'hidden'))
      process.stdout.write(`note  ${message}\n`);
    const failed = unlisted.filter((u) => u.reason === 'failed');
    for (const { message } of failed) process.stdout.write(`fail  ${message}\n`);
    // An [[enrich]] rule that cannot apply to a tool is a config mistake found only once tools exist.
    if (failed.length) throw new CliError(`${count(failed.length, 'tool')} failed enrichment`, 1);
    process.stdout.write(
      `config is valid: ${count(mounted.length, 'plugin')}, ${count(host.tools.listTools().length, 'tool')}\n`,
    );
  });
}
