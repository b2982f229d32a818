// The transport to an upstream server: Streamable HTTP, or a process spawned over stdio whose stderr is kept.
import { setMaxListeners } from 'node:events';
import { StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { Logger } from '../../contract/index.js';
import type { UpstreamTarget } from './options.js';
import type { StderrTail } from './stderr-tail.js';
import { SpawnedStdioTransport } from './stdio-process.js';

/**
 * fetch, after lifting the listener cap of the request's signal. The SDK passes one long-lived signal to every
 * request of a session, and undici leaves an abort listener on it per request until that request is garbage
 * collected: without this, Node warns about a listener leak on every call once a session has made ~1500.
 */
const fetchWithoutListenerCap: typeof fetch = (input, init) => {
  if (init?.signal) setMaxListeners(0, init.signal);
  return fetch(input, init);
};

/** `stderr`: where a spawned server's stderr and exit are kept (one per process); given for stdio. */
export function transportFor(target: UpstreamTarget, logger: Logger, stderr?: StderrTail): Transport {
  if (target.kind === 'http') {
    return new StreamableHTTPClientTransport(target.url, {
      fetch: fetchWithoutListenerCap,
      ...(target.token ? { requestInit: { headers: { Authorization: `Bearer ${target.token}` } } } : {}),
    });
  }
  const transport = new SpawnedStdioTransport({
    command: target.command,
    args: target.args,
    // The SDK's safe default set (PATH, HOME, …), not Foresight's whole environment with its secrets.
    env: { ...getDefaultEnvironment(), ...target.env },
    ...(target.cwd ? { cwd: target.cwd } : {}),
    stderr: 'pipe',
  });
  // Each line as kept (secrets cut, length bounded), so the debug log shows no more than a failure would.
  if (stderr === undefined) return transport;
  transport.stderr?.on('data', (chunk: Buffer) => {
    for (const line of stderr.write(chunk)) logger.debug({ stderr: line }, 'upstream: stderr');
  });
  transport.onexit = (exit) => stderr.ended(exit);
  return transport;
}
