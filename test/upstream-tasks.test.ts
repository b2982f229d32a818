// Tasks through an upstream: a Foresight mounting another (the task plugin served over HTTP, 2026-07-28 pinned)
// owns the task towards its client. It learns that the upstream's tools may run long from the tasks extension the
// upstream declares (the modern wire lists no task support), runs the upstream call as a task of its own, and never
// asks the upstream for one, but for a tool that runs only as a task upstream: the upstream's own task is followed.
import { describe, expect, it } from 'vitest';
import {
  WITHOUT_TASKS,
  type WireTask,
  callJob,
  createdTask,
  getTask,
  resultText,
  serveTasks,
  untilStatus,
} from './support/task-wire.js';
import { serveTasksThroughUpstream } from './support/tasks-through-upstream.js';

/** A second Foresight mounting `upstreamUrl` without prefix, turning calls into tasks at once. */
const serveThrough = (upstreamUrl: string) =>
  serveTasksThroughUpstream(upstreamUrl, ['protocol = "2026-07-28"']);

describe('a task-capable tool of a 2026-07-28 upstream', () => {
  it('runs as a task of the outer Foresight, polled to the upstream call’s result', async () => {
    // The inner would make a task at once too: the outer must not ask it for one (its client would refuse it).
    const inner = await serveTasks({ afterMs: 0 });
    const outer = await serveThrough(inner.url);

    const created = createdTask(await callJob(outer, 'held', { label: 'u' }));
    expect(created.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await getTask(outer, created.taskId)).status).toBe('working');
    inner.jobs.open('u');
    const done = await untilStatus(outer, created.taskId, 'completed');
    expect(resultText(done.result)).toBe('done: u');
  });

  it('answers a client without the tasks extension directly, a task-only tool too (the upstream’s task followed)', async () => {
    const inner = await serveTasks({ afterMs: 0 });
    const outer = await serveThrough(inner.url);

    const direct = await callJob(outer, 'quick', {}, WITHOUT_TASKS);
    expect(direct.response?.result).toMatchObject({ resultType: 'complete' });
    expect(direct.response?.result).not.toHaveProperty('taskId');

    // The upstream refuses a plain call of it; the outer calls it again as a task and polls it to its result.
    const followed = await callJob(outer, 'only_task', {}, WITHOUT_TASKS);
    expect(followed.response?.result).toMatchObject({ resultType: 'complete' });
    expect(resultText(followed.response?.result as WireTask['result'])).toBe('only_task: done');
  });
});
