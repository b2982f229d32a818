// `foresight tools` and `foresight call`: the tools as a client sees them, and one call to one of them.
import { describeThrown } from '../contract/index.js';
import { CliError } from './cli-error.js';
import type { CommonOptions } from './config-load.js';
import { connectInMemoryClient } from './in-memory-client.js';
import { pluginLabel, print } from './print.js';
import { withHost } from './with-host.js';

export async function toolsCommand(options: CommonOptions & { json?: boolean }): Promise<void> {
  await withHost(options, async (host) => {
    const client = await connectInMemoryClient(host);
    const { tools } = await client.listTools();
    // On stderr, so stdout stays the list (or the JSON) alone.
    for (const plugin of host.plugins.mountedPlugins())
      if (plugin.health.detail !== undefined)
        print(
          process.stderr,
          `foresight: ${pluginLabel(plugin)} ${plugin.health.state}: ${plugin.health.detail}\n`,
        );
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
