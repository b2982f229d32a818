// The bounds of tasks: a task is dropped when its ttlMs has passed (a running one has its call ended), max_tasks makes
// room by dropping the oldest finished task and otherwise answers directly, and a call that may become a task runs
// under the plugin's task deadline. Time is an injected clock; nothing waits for it.
import { describe, expect, it } from 'vitest';
import {
  WITHOUT_TASKS,
  callJob,
  createdTask,
  getTask,
  resultText,
  serveTasks,
  taskRequest,
  untilStatus,
} from './support/task-wire.js';

describe('a task whose ttlMs has passed', () => {
  it('is found until then, and not after; a call still running is ended', async () => {
    let now = Date.parse('2026-12-01T10:00:00Z');
    const { url, jobs } = await serveTasks({ afterMs: 0, ttlMs: 60_000, now: () => now });
    const { taskId, ttlMs, createdAt } = createdTask(await callJob(url, 'held', { label: 't' }));
    expect(ttlMs).toBe(60_000);
    expect(createdAt).toBe('2026-12-01T10:00:00.000Z');

    now += 59_999;
    expect((await getTask(url, taskId)).status).toBe('working');
    now += 1;
    const gone = await taskRequest(url, 'tasks/get', { taskId });
    expect(gone.response?.error).toMatchObject({ code: -32602, data: { code: 'E_TASK_NOT_FOUND' } });
    expect(await jobs.abortedOf('t')).toMatchObject({ code: 'E_TASK_EXPIRED' });
  });

  it('is dropped with its result once finished, whatever the client did not read', async () => {
    let now = 0;
    const { url } = await serveTasks({ afterMs: 0, ttlMs: 1_000, now: () => now });
    const { taskId } = createdTask(await callJob(url, 'quick'));
    await untilStatus(url, taskId, 'completed');
    now = 1_000;
    const gone = await taskRequest(url, 'tasks/get', { taskId });
    expect(gone.response?.error).toMatchObject({ data: { code: 'E_TASK_NOT_FOUND' } });
  });
});

describe('max_tasks', () => {
  it('drops the oldest finished task to make room, and answers directly while every task still runs', async () => {
    const { url, jobs } = await serveTasks({ afterMs: 0, maxTasks: 2 });
    const first = createdTask(await callJob(url, 'held', { label: 'one' }));
    const second = createdTask(await callJob(url, 'held', { label: 'two' }));

    // Both run: a third call is no task, it answers its request (the client accepts either).
    const direct = await callJob(url, 'quick');
    expect(direct.response?.result).toMatchObject({ resultType: 'complete' });
    expect(resultText(direct.response?.result)).toBe('quick: done');

    jobs.open('one');
    await untilStatus(url, first.taskId, 'completed');
    const third = createdTask(await callJob(url, 'held', { label: 'three' }));
    const dropped = await taskRequest(url, 'tasks/get', { taskId: first.taskId });
    expect(dropped.response?.error).toMatchObject({ data: { code: 'E_TASK_NOT_FOUND' } });
    expect((await getTask(url, second.taskId)).status).toBe('working');
    expect((await getTask(url, third.taskId)).status).toBe('working');
  });
});

describe("a call that may become a task runs under the plugin's task deadline", () => {
  it('and a call of the same tool that cannot become one under its call deadline', async () => {
    const { url } = await serveTasks({ afterMs: 0 }, { deadlines: { callTool: 1_000, task: 120_000 } });
    const { taskId } = createdTask(await callJob(url, 'time_left'));
    const asTask = Number(resultText((await untilStatus(url, taskId, 'completed')).result));
    expect(asTask).toBeGreaterThan(1_000);
    expect(asTask).toBeLessThanOrEqual(120_000);

    const direct = await callJob(url, 'time_left', {}, WITHOUT_TASKS);
    expect(Number(resultText(direct.response?.result))).toBeLessThanOrEqual(1_000);
  });

  it('never shorter than the call deadline', async () => {
    const { url } = await serveTasks({ afterMs: 0 }, { deadlines: { callTool: 90_000, task: 1_000 } });
    const { taskId } = createdTask(await callJob(url, 'time_left'));
    const asTask = Number(resultText((await untilStatus(url, taskId, 'completed')).result));
    expect(asTask).toBeGreaterThan(1_000);
  });
});
