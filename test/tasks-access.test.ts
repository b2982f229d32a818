// Who gets tasks and who sees them: a 2026-07-28 request without the tasks extension gets direct answers, -32021 for a
// tool that runs only as a task and for tasks/*; a 2025 client is not told of task support; a task is visible only
// to the principal that made it; malformed tasks/* params are refused naming what is wrong.
import { afterEach, describe, expect, it } from 'vitest';
import { connect, textOf } from './support/in-memory.js';
import { modernPost } from './support/modern-wire.js';
import { taskPlugin } from './support/task-plugin.js';
import {
  TASKS_EXTENSION,
  type TaskServed,
  WITHOUT_TASKS,
  callJob,
  createdTask,
  getTask,
  resultText,
  serveTasks,
  taskRequest,
} from './support/task-wire.js';

const open: { close(): Promise<void> }[] = [];

const serve = (): Promise<TaskServed> => serveTasks({ afterMs: 0 });

afterEach(async () => {
  await Promise.all(open.splice(0).map((served) => served.close()));
});

const MISSING_EXTENSION = {
  code: -32021,
  data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
};

describe('a 2026-07-28 request that does not declare the tasks extension', () => {
  it('gets a task-capable tool answered directly, however long it runs', async () => {
    const { url, jobs } = await serve();
    const pending = callJob(url, 'held', { label: 'n' }, WITHOUT_TASKS);
    jobs.open('n');
    const answer = await pending;
    expect(answer.response?.result).toMatchObject({ resultType: 'complete' });
    expect(answer.response?.result).not.toHaveProperty('taskId');
    expect(resultText(answer.response?.result)).toBe('done: n');
  });

  it('is refused a tool that runs only as a task, with -32021 naming the extension', async () => {
    const { url } = await serve();
    const answer = await callJob(url, 'only_task', {}, WITHOUT_TASKS);
    expect(answer.response?.error).toMatchObject(MISSING_EXTENSION);
    expect(answer.response?.error?.message).toMatch(/tool "job__only_task" needs tasks/);
  });

  it('is refused tasks/get, tasks/update and tasks/cancel with -32021, whatever task it names', async () => {
    const { url } = await serve();
    const { taskId } = createdTask(await callJob(url, 'held', { label: 'r' }));
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId }],
      ['tasks/get', { taskId: 'no-such-task' }],
    ] as const) {
      const answer = await modernPost(url, method, params, { capabilities: WITHOUT_TASKS });
      expect(answer.response?.error, method).toMatchObject(MISSING_EXTENSION);
    }
    // The refused cancel did not touch the task.
    expect((await getTask(url, taskId)).status).toBe('working');
  });
});

describe('the extension in server/discover', () => {
  it('is advertised under capabilities.extensions, and no tasks capability of 2025', async () => {
    const { url } = await serve();
    const answer = await modernPost(url, 'server/discover', {}, { capabilities: WITHOUT_TASKS });
    const capabilities = (answer.response?.result as { capabilities?: Record<string, unknown> }).capabilities;
    expect(capabilities?.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(capabilities).not.toHaveProperty('tasks');
  });
});

describe('a 2025 client', () => {
  it('is not told of task support, and has every tool answered directly', async () => {
    const jobs = taskPlugin();
    const connected = await connect({
      plugins: [jobs.plugin],
      planner: { enabled: false },
      tasks: { afterMs: 0 },
    });
    open.push(connected);
    const { tools } = await connected.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('job__only_task');
    for (const tool of tools) expect(tool, tool.name).not.toHaveProperty('execution');
    const result = await connected.client.callTool({ name: 'job__only_task', arguments: {} });
    expect(textOf(result)).toBe('only_task: done');
    expect(connected.client.getServerCapabilities()).not.toHaveProperty('extensions');
  });
});

describe('a task of one principal', () => {
  it('is not found by another, exactly as an unknown task is not, and cannot be updated or cancelled by it', async () => {
    const { url } = await serve();
    const { taskId } = createdTask(await callJob(url, 'held', { label: 'p' }));
    const other = { localAddress: '127.0.0.2' };

    const foreign = await taskRequest(url, 'tasks/get', { taskId }, other);
    expect(foreign.response?.error).toMatchObject({ code: -32602, data: { code: 'E_TASK_NOT_FOUND' } });
    const unknown = await taskRequest(url, 'tasks/get', { taskId: 'no-such-task' });
    expect(unknown.response?.error).toMatchObject({ code: -32602, data: { code: 'E_TASK_NOT_FOUND' } });
    expect(unknown.response?.error?.message).toMatch(/task "no-such-task" not found/);
    expect(foreign.response?.error?.message).toBe(
      unknown.response?.error?.message.replace('no-such-task', taskId),
    );

    for (const [method, params] of [
      ['tasks/update', { taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId }],
    ] as const) {
      const answer = await taskRequest(url, method, params, other);
      expect(answer.response?.error, method).toMatchObject({ data: { code: 'E_TASK_NOT_FOUND' } });
    }
    expect((await getTask(url, taskId)).status).toBe('working');
  });
});

describe('malformed tasks/* requests', () => {
  it('are refused with -32602 naming what is wrong', async () => {
    const { url } = await serve();
    const noId = await taskRequest(url, 'tasks/get', {});
    expect(noId.response?.error?.code).toBe(-32602);
    expect(noId.response?.error?.message).toMatch(/taskId/);

    const numericId = await modernPost(
      url,
      'tasks/get',
      { taskId: 42 },
      { capabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    );
    expect(numericId.response?.error?.code).toBe(-32602);
    expect(numericId.response?.error?.message).toMatch(/taskId/);

    const { taskId } = createdTask(await callJob(url, 'held', { label: 'm' }));
    const noResponses = await taskRequest(url, 'tasks/update', { taskId });
    expect(noResponses.response?.error).toMatchObject({
      code: -32602,
      data: { code: 'E_INVALID_ARGUMENTS' },
    });
    expect(noResponses.response?.error?.message).toMatch(/inputResponses is required/);
  });

  it('of the methods the extension removed (tasks/list, tasks/result) are unknown methods', async () => {
    const { url } = await serve();
    for (const method of ['tasks/list', 'tasks/result']) {
      const answer = await modernPost(url, method, method === 'tasks/list' ? {} : { taskId: 'x' }, {
        capabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
      expect(answer.response?.error?.code, method).toBe(-32601);
    }
  });
});
