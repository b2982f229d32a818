// The spawned server's process: a stdio transport that remembers the pid it started, and a sure way to end it.
import { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ProcessExit } from './stderr-tail.js';

/**
 * The SDK's stdio transport, remembering its child's pid and telling how the child ended. When connecting fails
 * or is aborted, the SDK closes the transport itself without waiting, and forgets the process: this pid is how
 * Foresight makes sure it ends.
 */
export class SpawnedStdioTransport extends StdioClientTransport {
  spawnedPid: number | undefined;
  /** Called once the child has exited, before the transport closes (Node emits `exit` before `close`). */
  onexit?: (exit: ProcessExit) => void;

  override async start(): Promise<void> {
    await super.start();
    this.spawnedPid = this.pid ?? undefined;
    // In 'auto' negotiation a subclass probes server/discover in place (the SDK spawns a sibling to probe only for
    // its base class), so this child is the one that serves: its stderr and exit are the server's.
    // The SDK keeps the child to itself and drops its exit code. Its field is read here, checked: an SDK that
    // renamed it would cost the exit code in messages, nothing else. (v2 keeps the 1.x name; the SDK is pinned in package.json.)
    const child: unknown = Reflect.get(this, '_process');
    if (!(child instanceof ChildProcess)) return;
    const exited = () => this.onexit?.({ code: child.exitCode, signal: child.signalCode });
    // `spawn` resolved start(), and no I/O event has run since: the child cannot have been seen exiting yet,
    // but a check costs nothing.
    if (child.exitCode !== null || child.signalCode !== null) exited();
    else child.once('exit', exited);
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
