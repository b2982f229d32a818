// The main thread's side of the planner replay's workers: each run gets a JavaScript thread of its own, as
// each agent would have its own Foresight process, so one run's CPU work (a grep over the tree) does not
// queue behind another's on a shared event loop.
import { Worker } from 'node:worker_threads';
import type { SessionRun } from './planner-replay-report.js';
import type { RunJob } from './planner-replay-run.js';
import type { FromWorker, ToWorker, WorkerInit } from './planner-replay-worker.js';

/** One run in progress on a worker. */
export interface RunHandle {
  /** Resolves when the run's hosts are up. */
  ready: Promise<void>;
  /** Lets the agent start. */
  start(): void;
  done: Promise<SessionRun>;
}

interface Pending {
  ready: { resolve(): void; reject(error: Error): void };
  done: { resolve(run: SessionRun): void; reject(error: Error): void };
}

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (error: Error) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // The caller may await only one of the two; a rejection of the other must not go unhandled.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * A worker thread running planner-replay-worker.ts through tsx (the bench runs under `node --import tsx`;
 * an eval'd bootstrap registers tsx in the worker, which Node 20 does not do for a .ts worker entry).
 */
export class ReplayWorker {
  readonly warm: Promise<void>;
  private readonly worker: Worker;
  private pending: Pending | undefined;

  constructor(init: WorkerInit) {
    const entry = new URL('./planner-replay-worker.ts', import.meta.url).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const bootstrap = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
    this.worker = new Worker(bootstrap, { eval: true, workerData: init });
    const warm = deferred<void>();
    this.warm = warm.promise;
    const fail = (error: Error) => {
      warm.reject(error);
      this.pending?.ready.reject(error);
      this.pending?.done.reject(error);
      this.pending = undefined;
    };
    this.worker.on('message', (message: FromWorker) => {
      if (message.type === 'warm') warm.resolve();
      else if (message.type === 'ready') this.pending?.ready.resolve();
      else if (message.type === 'done') {
        const pending = this.pending;
        this.pending = undefined;
        pending?.done.resolve(message.run);
      } else fail(new Error(`planner replay worker: ${message.message}`));
    });
    this.worker.on('error', (error) => fail(error));
    this.worker.on('exit', (code) => fail(new Error(`planner replay worker exited (code ${code})`)));
  }

  run(job: RunJob): RunHandle {
    if (this.pending) throw new Error('planner replay worker: one run at a time');
    const ready = deferred<void>();
    const done = deferred<SessionRun>();
    this.pending = { ready, done };
    this.post({ type: 'run', job });
    return { ready: ready.promise, done: done.promise, start: () => this.post({ type: 'start' }) };
  }

  private post(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}
