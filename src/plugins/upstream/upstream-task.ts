// A 2026-07-28 upstream's own task, followed to its end inside one call of Foresight's: a tool the server runs only
// as a task (it refuses a plain call with -32021 naming the tasks extension) is called again declaring the
// extension, and the task it answers with is polled (tasks/get), asked about (tasks/update) and, when the agent's
// call ends first, cancelled (tasks/cancel). Foresight still owns the task towards its own client: what the agent
// sees is the upstream task's outcome, as the call's result or error.
import { setTimeout as pause } from 'node:timers/promises';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type CallToolResult,
  type Client,
  type ClientCapabilities,
  ProtocolError,
  ProtocolErrorCode,
  type Root,
} from '@modelcontextprotocol/client';
import * as z from 'zod';
import type { RequestContext } from '../../contract/index.js';
import { UpstreamConnection } from './connection.js';
import { OFFERED_CAPABILITIES, capabilitiesMeta } from './input-bridge.js';
import { type InputRequest, type InputRound, answerInputRequests } from './input-relay.js';
import { TASKS_EXTENSION, offersTasks } from './task-support.js';

/** The server's task as a CreateTaskResult and tasks/get carry it (flat; only `taskId` and `status` are relied on). */
const TaskSchema = z.looseObject({
  taskId: z.string().min(1),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
  statusMessage: z.string().optional(),
  pollIntervalMs: z.number().nonnegative().optional(),
  inputRequests: z.record(z.string(), z.looseObject({ method: z.string(), params: z.unknown() })).optional(),
  result: z.looseObject({}).optional(),
  error: z.looseObject({ code: z.number(), message: z.string(), data: z.unknown() }).optional(),
});
type UpstreamTask = z.infer<typeof TaskSchema>;

/**
 * A tools/call answer when the request declared the extension: a CreateTaskResult (`resultType: "task"`, kept by
 * `acceptTaskAnswers`) or the tool's result, which the SDK has checked against the era's CallToolResult already.
 */
const TaskCallAnswerSchema = z.looseObject({ resultType: z.string().optional() });
/** tasks/update and tasks/cancel acknowledge with an empty result. */
const AcknowledgedSchema = z.looseObject({});

/** What the call to a task-only tool answered: the task to follow, on the connection that made it, or a result. */
export type TaskCallAnswer = { task: UpstreamTask; client: Client } | { result: CallToolResult };

/** Polling when the server suggests no interval; its own suggestion is never polled faster than. */
const DEFAULT_POLL_MS = 1_000;
/** Never polled faster than this, whatever the server suggests (0 would spin). */
const MIN_POLL_MS = 10;
/** A tasks/cancel sent after the agent's call ended is not waited on past this. */
const CANCEL_TIMEOUT_MS = 5_000;
/** Rounds of questions one task may ask before Foresight gives up on it, as the SDK's own round limit (10). */
const MAX_INPUT_ROUNDS = 10;

/** Whether Foresight may follow this connection's tasks: a 2026-07-28 server that declared the extension. */
export function followsTasks(client: Client): boolean {
  return client.getProtocolEra() === 'modern' && offersTasks(client.getServerCapabilities());
}

/** The SDK's per-era result decoder, as far as it is replaced here. */
interface ResultCodec {
  decodeResult(method: string, raw: unknown): unknown;
}
type CodecRouting = { _resolveOutboundCodec?: (method: string) => ResultCodec };
const taskAnswering = new WeakMap<ResultCodec, ResultCodec>();
/** Clients whose tools/call answers may be tasks (wrapped once, before their first call declaring the extension). */
const accepting = new WeakSet<Client>();

/**
 * Lets `client.request` hand back a CreateTaskResult of tools/call. The SDK (2.4) knows no task results: its
 * 2026-07-28 decoder refuses any `resultType` but `complete` and `input_required` before a request's own result
 * schema is consulted, and offers no hook for it. So the decoder a tools/call goes through is wrapped to pass a
 * `resultType: "task"` answer on as it came, for the schema given to check; every other answer decodes as before.
 * A plain callTool that got one (a server must not send it one) still fails, on its own result schema. If the SDK
 * no longer routes codecs this way nothing is changed, and a task answer fails the call as an unsupported result.
 */
function acceptTaskAnswers(client: Client): void {
  if (accepting.has(client)) return;
  accepting.add(client);
  const routing = client as unknown as CodecRouting;
  const resolve = routing._resolveOutboundCodec;
  if (typeof resolve !== 'function') return;
  routing._resolveOutboundCodec = (method) => {
    const codec = resolve.call(client, method);
    return method === 'tools/call' ? taskAnsweringCodec(codec) : codec;
  };
}

function taskAnsweringCodec(codec: ResultCodec): ResultCodec {
  let wrapped = taskAnswering.get(codec);
  if (wrapped === undefined) {
    wrapped = Object.create(codec, {
      decodeResult: {
        value: (method: string, raw: unknown) =>
          (raw as { resultType?: unknown } | null)?.resultType === 'task'
            ? { kind: 'complete', result: raw }
            : codec.decodeResult(method, raw),
      },
    }) as ResultCodec;
    taskAnswering.set(codec, wrapped);
  }
  return wrapped;
}

/**
 * The `_meta` of a request that declares the extension: the capabilities the call would have declared (the agent's,
 * else Foresight's own) with the extension added, as 2026-07-28 declares client capabilities per request.
 */
export function declaringTasks(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  const declared =
    (meta?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? OFFERED_CAPABILITIES;
  const extensions = (declared as { extensions?: Record<string, unknown> }).extensions;
  return {
    ...meta,
    [CLIENT_CAPABILITIES_META_KEY]: { ...declared, extensions: { ...extensions, [TASKS_EXTENSION]: {} } },
  };
}

/**
 * Sends a tools/call declaring the extension. The server may still answer at once, or ask for input first (a
 * 2026-07-28 server may ask before it creates the task): `manual` hands such a round back, as for a plain call.
 */
export async function sendAsTask(
  client: Client,
  params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> },
  rc: RequestContext,
  manual: boolean,
): Promise<TaskCallAnswer | InputRound> {
  acceptTaskAnswers(client);
  const answer = await client.request(
    { method: 'tools/call', params: { ...params, _meta: declaringTasks(params._meta) } },
    TaskCallAnswerSchema,
    { ...UpstreamConnection.requestOptions(rc), ...(manual ? { allowInputRequired: true } : {}) },
  );
  if (answer.resultType === 'input_required') return answer as unknown as InputRound;
  if (answer.resultType !== 'task') return { result: answer as unknown as CallToolResult };
  const task = TaskSchema.safeParse(answer);
  if (!task.success)
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `the server answered with a malformed task: ${task.error.message}`,
    );
  return { task: task.data, client };
}

/**
 * Follows the server's task until it ends and gives its outcome: `completed` → its result (a tool error stays
 * `isError`); `failed` → the server's JSON-RPC error, as a ProtocolError (so a task of Foresight's fails too, rather
 * than completing); `cancelled` by the server → an error saying so. Questions the task asks go to the agent and are
 * answered with tasks/update. When the agent's call ends first (cancelled, deadline, shutdown) the task is cancelled.
 */
export async function followTask(
  client: Client,
  created: UpstreamTask,
  rc: RequestContext,
  roots?: Root[],
): Promise<CallToolResult> {
  const { taskId } = created;
  try {
    return await untilEnded(client, created, rc, roots);
  } catch (error) {
    // Nobody reads the outcome now: the server is told to stop (cooperative; it may finish anyway).
    if (rc.signal.aborted) cancelTask(client, taskId);
    throw error;
  }
}

async function untilEnded(
  client: Client,
  created: UpstreamTask,
  rc: RequestContext,
  roots: Root[] | undefined,
): Promise<CallToolResult> {
  let task = created;
  /** Keys already answered: a server that has not yet taken an answer in is not asked the same again. */
  const answered = new Set<string>();
  let rounds = 0;
  for (;;) {
    const outcome = outcomeOf(task);
    // Answers count only until the task moves on: a later round may reuse a key for a new question.
    if (task.status !== 'input_required') answered.clear();
    if (outcome !== undefined) return outcome;
    const asked = unanswered(task, answered);
    if (asked !== undefined) {
      if ((rounds += 1) > MAX_INPUT_ROUNDS)
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          `the server's task asked for input more than ${MAX_INPUT_ROUNDS} times`,
        );
      const inputResponses = await answerInputRequests(rc, asked, roots);
      for (const key of Object.keys(asked)) answered.add(key);
      await taskRequest(client, rc, 'tasks/update', { taskId: task.taskId, inputResponses });
    } else {
      await pause(Math.max(task.pollIntervalMs ?? DEFAULT_POLL_MS, MIN_POLL_MS), undefined, {
        signal: rc.signal,
      });
    }
    task = await getTask(client, rc, task.taskId);
  }
}

/** A terminal task's outcome; undefined while it runs or waits for input. */
function outcomeOf(task: UpstreamTask): CallToolResult | undefined {
  switch (task.status) {
    case 'completed':
      if (task.result === undefined)
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          `the server's task "${task.taskId}" completed without a result`,
        );
      return task.result as CallToolResult;
    case 'failed':
      throw new ProtocolError(
        task.error?.code ?? ProtocolErrorCode.InternalError,
        task.error?.message ?? task.statusMessage ?? `the server's task "${task.taskId}" failed`,
        task.error?.data,
      );
    case 'cancelled':
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `the server cancelled its task "${task.taskId}"${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
      );
    default:
      return undefined;
  }
}

/** The questions of an `input_required` task not answered yet; undefined when there are none to ask. */
function unanswered(task: UpstreamTask, answered: Set<string>): Record<string, InputRequest> | undefined {
  if (task.status !== 'input_required' || task.inputRequests === undefined) return undefined;
  const open = Object.entries(task.inputRequests).filter(([key]) => !answered.has(key));
  return open.length === 0 ? undefined : Object.fromEntries(open);
}

async function getTask(client: Client, rc: RequestContext, taskId: string): Promise<UpstreamTask> {
  const answer = await taskRequest(client, rc, 'tasks/get', { taskId });
  const task = TaskSchema.safeParse(answer);
  if (!task.success)
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `the server answered tasks/get with a malformed task: ${task.error.message}`,
    );
  return task.data;
}

/**
 * A request of the extension: each one declares it again, with what the agent can answer, as 2026-07-28
 * capabilities hold per request.
 */
function taskRequest(
  client: Client,
  rc: RequestContext,
  method: 'tasks/get' | 'tasks/update',
  params: Record<string, unknown>,
): Promise<unknown> {
  return client.request(
    { method, params: { ...params, _meta: declaringTasks(capabilitiesMeta(rc)) } },
    AcknowledgedSchema,
    UpstreamConnection.requestOptions(rc),
  );
}

function cancelTask(client: Client, taskId: string): void {
  client
    .request(
      { method: 'tasks/cancel', params: { taskId, _meta: declaringTasks(undefined) } },
      AcknowledgedSchema,
      { timeout: CANCEL_TIMEOUT_MS },
    )
    .catch(() => {
      // The server ends the task at its ttl anyway; nothing waits for this answer.
    });
}
