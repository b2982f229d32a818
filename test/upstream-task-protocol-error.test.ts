// An upstream that answers a tool call with a JSON-RPC error, not a result: the tasks extension keeps `failed` for
// such protocol-level errors, so Foresight's task for the call fails with the server's code, while a tool's own
// failure (a result with isError) completes it. A call that is no task still answers the error as a tool result
// with isError, as it answers every plugin failure, for the agent to read.
import { describe, expect, it, onTestFinished } from 'vitest';
import { CRASH_MESSAGE, serveLegacyHttp } from './support/legacy-http-upstream.js';
import { modernPost } from './support/modern-wire.js';
import { serveTasksThroughUpstream } from './support/tasks-through-upstream.js';
import { WITHOUT_TASKS, WITH_TASKS, createdTask, resultText, untilStatus } from './support/task-wire.js';

/** A Foresight mounting a 2025-only server without prefix, every call of its tools a task at once. */
async function serveThroughLegacy(): Promise<string> {
  const upstream = await serveLegacyHttp();
  onTestFinished(() => upstream.close());
  return serveTasksThroughUpstream(upstream.url, [
    'protocol = "2025-11-25"',
    // A 2025 server declares no tasks extension: the tools are told to run long here.
    'tasks = { "*" = "optional" }',
  ]);
}

function call(url: string, name: string, capabilities: Record<string, unknown>) {
  return modernPost(url, 'tools/call', { name, arguments: { text: 'hi' } }, { capabilities });
}

describe('an upstream that answers a call with a JSON-RPC error', () => {
  it('fails the task with the server’s code and words, and no result', async () => {
    const url = await serveThroughLegacy();
    const created = createdTask(await call(url, 'crash', WITH_TASKS));
    const failed = await untilStatus(url, created.taskId, 'failed');
    expect(failed.result).toBeUndefined();
    expect(failed.error).toMatchObject({
      code: -32603,
      message: expect.stringContaining(CRASH_MESSAGE),
      data: { code: 'E_UPSTREAM_PROTOCOL_ERROR', kind: 'internal' },
    });
    expect(failed.error?.message).toContain('ended in a protocol error (-32603)');
  });

  it('completes the task of a call the server answered', async () => {
    const url = await serveThroughLegacy();
    const created = createdTask(await call(url, 'echo', WITH_TASKS));
    const done = await untilStatus(url, created.taskId, 'completed');
    expect(resultText(done.result)).toBe('echo: hi');
  });

  it('answers a call that is no task with a tool result with isError naming the server’s error', async () => {
    const url = await serveThroughLegacy();
    const answer = await call(url, 'crash', WITHOUT_TASKS);
    expect(answer.response?.error).toBeUndefined();
    const result = answer.response?.result as { isError?: boolean; _meta?: Record<string, unknown> };
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain(CRASH_MESSAGE);
    expect(result._meta?.['foresight/error']).toEqual({
      code: 'E_UPSTREAM_PROTOCOL_ERROR',
      kind: 'internal',
    });
  });
});
