// Worker thread of the planner replay: warms up once, then runs the session runs the main thread posts, one
// at a time, telling it when the hosts are up and waiting for its word to start the agent.
import { parentPort, workerData } from 'node:worker_threads';
import type { AgentWorld } from './planner-replay-agent.js';
import { type RunJob, runSession, warmUp } from './planner-replay-run.js';
import type { SessionRun } from './planner-replay-report.js';
import type { PlannerReplaySettings } from './planner-replay-settings.js';

/** What every worker gets at spawn. */
export interface WorkerInit {
  settings: PlannerReplaySettings;
  dir: string;
  workspaceRoot: string;
  world: AgentWorld;
}

export type ToWorker = { type: 'run'; job: RunJob } | { type: 'start' };
export type FromWorker =
  | { type: 'warm' }
  | { type: 'ready' }
  | { type: 'done'; run: SessionRun }
  | { type: 'failed'; message: string };

const port = parentPort;
if (port === null) throw new Error('planner-replay-worker.ts runs as a worker thread');
const init = workerData as WorkerInit;
const post = (message: FromWorker) => port.postMessage(message);

let release: () => void = () => {};
port.on('message', (message: ToWorker) => {
  if (message.type === 'start') {
    release();
    return;
  }
  // Made before the hosts start, so a 'start' can never arrive ahead of its gate.
  const gate = new Promise<void>((resolve) => (release = resolve));
  runSession(message.job, { ready: () => post({ type: 'ready' }), start: () => gate }).then(
    (run) => post({ type: 'done', run }),
    (error: unknown) =>
      post({
        type: 'failed',
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});

await warmUp(init.settings, init.dir, init.workspaceRoot, init.world);
post({ type: 'warm' });
