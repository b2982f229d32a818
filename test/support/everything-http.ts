// server-everything serving Streamable HTTP on a loopback port, for the upstream plugin's HTTP tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { withTimeout } from './cli.js';
import { PATIENCE_MS } from './patience.js';

const require = createRequire(import.meta.url);
export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

/** A loopback port free now (the OS picks it; the caller binds it next). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  await once(probe, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface EverythingHttp {
  port: number;
  url: string;
  process: ChildProcess;
  /** Kills the server (SIGKILL: no goodbye to its sessions) and waits for it to exit. */
  kill(): Promise<void>;
}

/** Starts server-everything's `streamableHttp` mode on `port` (a free one if omitted) and waits until it listens. */
export async function startEverythingHttp(port?: number): Promise<EverythingHttp> {
  const listenOn = port ?? (await freePort());
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(listenOn) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  const listening = new Promise<void>((resolve, reject) => {
    const check = (chunk: Buffer) => {
      said += chunk.toString('utf8');
      if (said.includes(`listening on port ${listenOn}`)) resolve();
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}):\n${said}`)));
  });
  await withTimeout(listening, PATIENCE_MS, `server-everything to listen on ${listenOn}`);
  return {
    port: listenOn,
    url: `http://127.0.0.1:${listenOn}/mcp`,
    process: child,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
