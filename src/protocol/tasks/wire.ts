// The tasks extension (io.modelcontextprotocol/tasks) on the wire: its id, the params of its three methods, and
// the shapes a task takes in a CreateTaskResult and a tasks/get answer.
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import * as z from 'zod';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Whether a request's client capabilities declare the extension (a per-request choice in 2026-07-28). */
export function declaresTasks(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && Object.hasOwn(extensions, TASKS_EXTENSION);
}

const TaskIdSchema = z.string().min(1, 'taskId must not be empty');

export const GetTaskParamsSchema = z.looseObject({ taskId: TaskIdSchema });
export const CancelTaskParamsSchema = z.looseObject({ taskId: TaskIdSchema });
/** `inputResponses` is checked by the handler: the SDK lifts it out of the params before they are validated. */
export const UpdateTaskParamsSchema = z.looseObject({ taskId: TaskIdSchema });

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** A JSON-RPC error object, as a failed task carries the error its request would have answered. */
export type TaskError = {
  code: number;
  message: string;
  data?: unknown;
};

/** The `Task` every task message carries (timestamps ISO 8601, durations integer milliseconds). */
export type TaskInfo = {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
};

/** A tasks/get answer: the task with what its status carries (`DetailedTask`). */
export type DetailedTask = TaskInfo & {
  inputRequests?: Record<string, { method: string; params?: Record<string, unknown> }>;
  result?: Record<string, unknown>;
  error?: TaskError;
};

/** What a tools/call answers when its call became a task: flat, never its result, error or input requests. */
export type CreateTaskResult = TaskInfo & { resultType: 'task' };

export function createTaskResult(task: DetailedTask): CreateTaskResult {
  const { inputRequests: _i, result: _r, error: _e, ...info } = task;
  return { resultType: 'task', ...info };
}

/** Whether a tools/call answer is a CreateTaskResult (which no result check or redaction applies to). */
export function isCreateTaskResult(value: unknown): value is CreateTaskResult {
  return (value as { resultType?: unknown } | null)?.resultType === 'task';
}
