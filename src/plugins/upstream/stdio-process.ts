// The spawned server's process: a stdio transport that remembers the pid it started, and a sure way to end it.
import { setTimeout as sleep } from 'node:timers/promises';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * The SDK's stdio transport, remembering its child's pid. When connecting fails or is aborted, the SDK closes
 * the transport itself without waiting, and forgets the process: this pid is how Foresight makes sure it ends.
 */
export class SpawnedStdioTransport extends StdioClientTransport {
  spawnedPid: number | undefined;

  override async start(): Promise<void> {
    await super.start();
    this.spawnedPid = this.pid ?? undefined;
  }
}

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Ends a process that is still running: SIGTERM, then SIGKILL after `graceMs`. Resolves once it is gone. */
export async function endProcess(pid: number, graceMs = 1000): Promise<void> {
  if (!isRunning(pid)) return;
  process.kill(pid, 'SIGTERM');
  for (const until = Date.now() + graceMs; Date.now() < until; await sleep(20)) if (!isRunning(pid)) return;
  if (isRunning(pid)) process.kill(pid, 'SIGKILL');
}
