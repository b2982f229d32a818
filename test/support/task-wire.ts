// Tasks on the wire for tests: a host serving the task plugin over HTTP, calls and tasks/* requests as a 2026-07-28
// client sends them, and polling a task until it reaches a status (outcomes, never timings, are asserted).
import { expect, onTestFinished, vi } from 'vitest';
import { type CreateHostOptions, type ForesightHost, createHost } from '../../src/create-host.js';
import type { MountSpec } from '../../src/index.js';
import type { HttpServing } from '../../src/protocol/index.js';
import { createMemoryLogger } from './in-memory.js';
import { type PostOptions, type WireAnswer, modernPost } from './modern-wire.js';
import { type TaskPlugin, taskPlugin } from './task-plugin.js';
import { PATIENCE_MS } from './patience.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** What a client that takes tasks declares: the extension, and elicitation for the questions a task asks. */
export const WITH_TASKS = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
export const WITHOUT_TASKS = { elicitation: {} };

export interface TaskServed {
  host: ForesightHost;
  http: HttpServing;
  jobs: TaskPlugin;
  url: string;
}

export interface WireTask {
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  inputRequests?: Record<string, { method: string; params?: Record<string, unknown> }>;
  result?: { content?: { type: string; text?: string }[]; isError?: boolean };
  error?: { code: number; message: string; data?: Record<string, unknown> };
  resultType?: string;
}

/** Serves the task plugin (`job__*`) over HTTP; by default every call of a task-capable tool becomes a task at once. */
export async function serveTasks(
  tasks: CreateHostOptions['tasks'] = { afterMs: 0 },
  mount: Omit<MountSpec, 'plugin'> = {},
): Promise<TaskServed> {
  const jobs = taskPlugin();
  const host = createHost({
    plugins: [{ ...mount, plugin: jobs.plugin }],
    logger: createMemoryLogger(),
    planner: { enabled: false },
    tasks,
  });
  // Closed when the test that served it ends, whatever the test asserted.
  onTestFinished(() => host.close());
  const http = await host.serveHttp({ port: 0 });
  return { host, http, jobs, url: http.url };
}

export function callJob(
  url: string,
  tool: string,
  args: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = WITH_TASKS,
  options: PostOptions = {},
): Promise<WireAnswer> {
  return modernPost(
    url,
    'tools/call',
    { name: `job__${tool}`, arguments: args },
    { capabilities, ...options },
  );
}

export function taskRequest(
  url: string,
  method: 'tasks/get' | 'tasks/update' | 'tasks/cancel',
  params: Record<string, unknown>,
  options: PostOptions = {},
): Promise<WireAnswer> {
  return modernPost(url, method, params, { capabilities: WITH_TASKS, ...options });
}

/** The CreateTaskResult a call answered (failing the test when it answered anything else). */
export function createdTask(answer: WireAnswer): WireTask {
  expect(answer.response?.error).toBeUndefined();
  const result = answer.response?.result as WireTask | undefined;
  expect(result?.resultType).toBe('task');
  return result!;
}

export async function getTask(url: string, taskId: string, options: PostOptions = {}): Promise<WireTask> {
  const answer = await taskRequest(url, 'tasks/get', { taskId }, options);
  expect(answer.response?.error).toBeUndefined();
  return answer.response?.result as unknown as WireTask;
}

/** Polls tasks/get until the task has `status`, as a client would (bounded, so a task that never gets there fails). */
export function untilStatus(url: string, taskId: string, status: string): Promise<WireTask> {
  return vi.waitFor(
    async () => {
      const task = await getTask(url, taskId);
      if (task.status !== status) throw new Error(`task ${taskId} is ${task.status}, not ${status}`);
      return task;
    },
    { timeout: PATIENCE_MS, interval: 10 },
  );
}

/** The text of a tool result, inlined in a task or answered directly. */
export function resultText(result: WireTask['result'] | Record<string, unknown> | undefined): string {
  const content = ((result as { content?: unknown } | undefined)?.content ?? []) as { text?: string }[];
  return content.map((block) => block.text ?? '').join('');
}
