// A Foresight over HTTP mounting one upstream server without prefix, making every call of its tools a task at
// once: the outer side of the tests of tasks through an upstream. Closed when the test finishes.
import { onTestFinished } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { createHost } from '../../src/create-host.js';
import { createMemoryLogger } from './in-memory.js';
import { modernPost } from './modern-wire.js';

/** Serves the upstream at `upstreamUrl` with the plugin table's `options` lines; resolves with the MCP URL. */
export async function serveTasksThroughUpstream(upstreamUrl: string, options: string[]): Promise<string> {
  const config = parseConfig(
    [
      '[plugins.up]',
      'use = "upstream"',
      `url = ${JSON.stringify(upstreamUrl)}`,
      'prefix = ""',
      ...options,
    ].join('\n'),
    '/proj/foresight.toml',
    '/proj',
  );
  const host = createHost({
    config,
    logger: createMemoryLogger(),
    planner: { enabled: false },
    tasks: { afterMs: 0 },
  });
  onTestFinished(() => host.close());
  const http = await host.serveHttp({ port: 0 });
  // A listing waits for the upstream's catalogs (a call does not: an unknown tool is refused at once).
  await modernPost(http.url, 'tools/list', {});
  return http.url;
}
