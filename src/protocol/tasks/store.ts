// The tasks of this process, in memory: bounded in number and in time (ttlMs from their start), each one visible only
// to the principal that made it.
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { DEFAULT_MAX_TASKS, DEFAULT_TASK_POLL_INTERVAL_MS, DEFAULT_TASK_TTL_MS } from '../../config/index.js';
import { errors } from '../../contract/index.js';
import type { InputFlow } from '../input-flow.js';
import { type SettleTask, Task } from './task.js';
import type { DetailedTask } from './wire.js';

export interface TaskStoreOptions {
  /** How long a task is kept after it starts, whatever its state; default 1 hour. A running task is then ended. */
  ttlMs?: number;
  /** The polling interval suggested to clients; default 1000 ms. */
  pollIntervalMs?: number;
  /** Tasks kept at once; default 1000. */
  maxTasks?: number;
  /** The clock, in ms; default `Date.now`. Tests pass TTLs by moving it. */
  now?: () => number;
}

/** Who makes a task, and how its call's end becomes its outcome. */
export interface NewTask {
  principal: string;
  capabilities: ClientCapabilities | undefined;
  settle: SettleTask;
}

export class TaskStore {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly maxTasks: number;
  private readonly now: () => number;
  /** In the order the tasks started, which with one TTL for all is also the order they expire in. */
  private readonly tasks = new Map<string, Task>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(options: TaskStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? DEFAULT_TASK_TTL_MS;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_TASK_POLL_INTERVAL_MS;
    this.maxTasks = options.maxTasks ?? DEFAULT_MAX_TASKS;
    this.now = options.now ?? Date.now;
  }

  /** Tasks kept now (for tests and stats). */
  get size(): number {
    return this.tasks.size;
  }

  /**
   * Makes a task of a running call. Undefined when the store is full of tasks still running: the call then
   * answers its request directly, which the client accepts since the server alone decides what becomes a task.
   */
  create(flow: InputFlow<unknown>, made: NewTask): Task | undefined {
    this.sweep();
    if (this.tasks.size >= this.maxTasks && !this.dropOldestFinished()) return undefined;
    const task = new Task(flow, { ...made, now: this.now });
    this.tasks.set(task.id, task);
    this.sweeper ??= setInterval(() => this.sweep(), Math.min(this.ttlMs, 60_000)).unref();
    return task;
  }

  /**
   * The task `taskId` of `principal`. An unknown id, an expired task and another principal's task are the same
   * not-found error, so the answer never tells that someone else's task exists.
   */
  get(taskId: string, principal: string): Task {
    this.sweep();
    const task = this.tasks.get(taskId);
    if (!task || task.principal !== principal) throw errors.taskNotFound(taskId, this.ttlMs);
    return task;
  }

  /** The task as tasks/get and CreateTaskResult show it. */
  view(task: Task): DetailedTask {
    return task.view(this.ttlMs, this.pollIntervalMs);
  }

  /** Ends every running task and forgets them all (on shutdown). */
  close(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const task of this.tasks.values())
      if (!task.terminal) task.end(errors.shuttingDown(`task "${task.id}"`));
    this.tasks.clear();
  }

  /** Drops the tasks whose ttlMs has passed, ending the calls of those still running. */
  private sweep(): void {
    const cutoff = this.now() - this.ttlMs;
    for (const [id, task] of this.tasks) {
      if (task.createdAtMs > cutoff) break;
      this.tasks.delete(id);
      if (!task.terminal) task.end(errors.taskExpired(id, this.ttlMs));
    }
  }

  /** Makes room by forgetting the oldest finished task; false when every task is still running. */
  private dropOldestFinished(): boolean {
    for (const [id, task] of this.tasks) {
      if (!task.terminal) continue;
      this.tasks.delete(id);
      return true;
    }
    return false;
  }
}
