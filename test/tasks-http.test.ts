// Tasks for a 2026-07-28 client that declares the io.modelcontextprotocol/tasks extension, on the wire: a long call of
// a task-capable tool answers a CreateTaskResult, is polled to its result, asks questions through input_required and
// tasks/update, gathers input before it becomes a task, and is cancelled.
import { describe, expect, it } from 'vitest';
import {
  callJob,
  createdTask,
  getTask,
  resultText,
  serveTasks,
  taskRequest,
  untilStatus,
} from './support/task-wire.js';
import { modernPost } from './support/modern-wire.js';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('a long call of a task-capable tool', () => {
  it('answers a flat CreateTaskResult, and tasks/get shows the task working, then completed with its result', async () => {
    const { url, jobs } = await serveTasks({ afterMs: 0, ttlMs: 120_000, pollIntervalMs: 250 });
    const created = createdTask(await callJob(url, 'held', { label: 'a' }));
    expect(created).toMatchObject({ status: 'working', ttlMs: 120_000, pollIntervalMs: 250 });
    expect(created.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.createdAt).toMatch(ISO_8601);
    expect(created.lastUpdatedAt).toMatch(ISO_8601);
    for (const absent of ['task', 'result', 'error', 'inputRequests', 'requestState'])
      expect(created).not.toHaveProperty(absent);

    // A task is durable before its CreateTaskResult is sent: the first tasks/get finds it.
    expect(await getTask(url, created.taskId)).toMatchObject({
      taskId: created.taskId,
      status: 'working',
      resultType: 'complete',
    });
    jobs.open('a');
    const done = await untilStatus(url, created.taskId, 'completed');
    expect(resultText(done.result)).toBe('done: a');
    expect(done).not.toHaveProperty('error');
    expect(done).not.toHaveProperty('inputRequests');
  });

  it('completes with a tool error as its result, and fails with the JSON-RPC error its call would have answered', async () => {
    const { url } = await serveTasks();
    const toolError = createdTask(await callJob(url, 'tool_error'));
    const completed = await untilStatus(url, toolError.taskId, 'completed');
    expect(completed.result).toMatchObject({ isError: true });
    expect(resultText(completed.result)).toBe('the job failed');

    // Asking for roots the request did not declare is a protocol error (-32021) on the tools/call: so on the task.
    const protocolError = createdTask(await callJob(url, 'needs_roots'));
    const failed = await untilStatus(url, protocolError.taskId, 'failed');
    expect(failed.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { roots: {} }, code: 'E_CAPABILITY_MISSING' },
    });
    expect(failed.statusMessage).toBe(failed.error?.message);
    expect(failed).not.toHaveProperty('result');
  });

  it('answers directly when the call finishes within task_after_ms', async () => {
    const { url } = await serveTasks({ afterMs: 60_000 });
    const answer = await callJob(url, 'quick');
    expect(answer.response?.result).toMatchObject({ resultType: 'complete' });
    expect(answer.response?.result).not.toHaveProperty('taskId');
    expect(resultText(answer.response?.result)).toBe('quick: done');
  });

  it('never makes a task of a tool that is not task-capable', async () => {
    const { url } = await serveTasks({ afterMs: 0 });
    const answer = await callJob(url, 'plain');
    expect(answer.response?.result).toMatchObject({ resultType: 'complete' });
    expect(resultText(answer.response?.result)).toBe('plain: done');
  });
});

describe('questions a task asks', () => {
  it('show as input_required with their input requests; tasks/update answers them and the task goes on', async () => {
    const { url } = await serveTasks();
    const { taskId } = createdTask(await callJob(url, 'ask'));
    const waiting = await untilStatus(url, taskId, 'input_required');
    expect(waiting.inputRequests).toEqual({
      'elicitation-1': {
        method: 'elicitation/create',
        params: expect.objectContaining({ message: 'Go ahead?' }),
      },
    });
    expect(waiting).not.toHaveProperty('requestState');

    // An answer under a key the task does not wait on is ignored; the acknowledgement is empty either way.
    const ignored = await taskRequest(url, 'tasks/update', {
      taskId,
      inputResponses: { 'unknown-key': { action: 'accept', content: {} } },
    });
    expect(ignored.response?.result).toMatchObject({ resultType: 'complete' });
    expect((await getTask(url, taskId)).status).toBe('input_required');

    const ack = await taskRequest(url, 'tasks/update', {
      taskId,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { ok: true } } },
    });
    expect(Object.keys(ack.response?.result ?? {}).sort()).toEqual(['_meta', 'resultType']);
    const done = await untilStatus(url, taskId, 'completed');
    expect(resultText(done.result)).toBe('confirmed: true');
  });

  it('stay input_required after a partial answer, showing only the question still open', async () => {
    const { url } = await serveTasks();
    const { taskId } = createdTask(await callJob(url, 'ask_two'));
    const waiting = await untilStatus(url, taskId, 'input_required');
    expect(Object.keys(waiting.inputRequests ?? {}).sort()).toEqual(['elicitation-1', 'elicitation-2']);

    await taskRequest(url, 'tasks/update', {
      taskId,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { ok: true } } },
    });
    const partly = await getTask(url, taskId);
    expect(partly.status).toBe('input_required');
    expect(Object.keys(partly.inputRequests ?? {})).toEqual(['elicitation-2']);

    await taskRequest(url, 'tasks/update', {
      taskId,
      inputResponses: { 'elicitation-2': { action: 'decline' } },
    });
    const done = await untilStatus(url, taskId, 'completed');
    expect(resultText(done.result)).toBe('answers: accept, decline');
  });

  it('asked before the call becomes a task are a multi round-trip request, and the retry becomes the task', async () => {
    // The tool asks at once, well within 200 ms; after the answer it waits for the test, so it becomes a task.
    const { url, jobs } = await serveTasks({ afterMs: 200 });
    const first = await callJob(url, 'gather_then_hold', { label: 'g' });
    const asked = first.response?.result as { resultType: string; requestState: string; taskId?: string };
    expect(asked).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: {} } });
    expect(asked).not.toHaveProperty('taskId');

    const retry = await modernPost(
      url,
      'tools/call',
      {
        name: 'job__gather_then_hold',
        arguments: { label: 'g' },
        inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
        requestState: asked.requestState,
      },
      { capabilities: { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    );
    const created = createdTask(retry);
    expect(created).not.toHaveProperty('requestState');
    jobs.open('g');
    const done = await untilStatus(url, created.taskId, 'completed');
    expect(resultText(done.result)).toBe('Hello, Alice');
  });
});

describe('tasks/cancel', () => {
  it('cancels the task at once and aborts its call; a second cancel is the same empty acknowledgement', async () => {
    const { url, jobs } = await serveTasks();
    const { taskId } = createdTask(await callJob(url, 'held', { label: 'c' }));
    const ack = await taskRequest(url, 'tasks/cancel', { taskId });
    expect(ack.response?.result).toMatchObject({ resultType: 'complete' });
    expect(ack.response?.result).not.toHaveProperty('status');
    expect(await getTask(url, taskId)).toMatchObject({ status: 'cancelled' });
    // Cooperative: the plugin's signal tells it, with the reason.
    expect(await jobs.abortedOf('c')).toMatchObject({ code: 'E_CANCELLED' });

    jobs.open('c');
    const again = await taskRequest(url, 'tasks/cancel', { taskId });
    expect(again.response?.result).toMatchObject({ resultType: 'complete' });
    expect(await getTask(url, taskId)).toMatchObject({ status: 'cancelled' });
  });

  it('leaves a finished task as it was', async () => {
    const { url } = await serveTasks();
    const { taskId } = createdTask(await callJob(url, 'quick'));
    await untilStatus(url, taskId, 'completed');
    const ack = await taskRequest(url, 'tasks/cancel', { taskId });
    expect(ack.response?.result).toMatchObject({ resultType: 'complete' });
    expect(await getTask(url, taskId)).toMatchObject({ status: 'completed' });
  });
});
