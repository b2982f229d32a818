// A 2026-07-28 upstream's own task, followed by Foresight: a tool the upstream runs only as a task (a plain call is
// refused with -32021 naming the tasks extension) is called again declaring the extension, and Foresight polls the
// task the upstream makes of it to its end. The upstream is a second Foresight serving the conformance fixtures
// over HTTP; the agent is a real SDK client on the outer Foresight, which never sees a task of the upstream's.
import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { createHost } from '../src/create-host.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';

/** The conformance fixtures over HTTP, their task-capable tools a task after 100 ms, polled every 100 ms. */
async function serveFixtures(): Promise<string> {
  const host = createHost({
    config: parseConfig('[plugins.conformance]\nprefix = ""\n', '/inner/foresight.toml', '/inner'),
    logger: createMemoryLogger(),
    planner: { enabled: false },
    tasks: { afterMs: 100, pollIntervalMs: 100 },
  });
  onTestFinished(() => host.close());
  return (await host.serveHttp({ port: 0 })).url;
}

/** The JSON-RPC methods Foresight sends to `url`, in order (read from its fetch calls, which stay real). */
function methodsSentTo(url: string): string[] {
  const methods: string[] = [];
  const real = globalThis.fetch;
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    if (String(input instanceof Request ? input.url : input) === url && typeof init?.body === 'string') {
      const message = JSON.parse(init.body) as { method?: string };
      if (message.method !== undefined) methods.push(message.method);
    }
    return real(input, init);
  });
  onTestFinished(() => spy.mockRestore());
  return methods;
}

/**
 * A Foresight mounting the fixtures as `up` on 2026-07-28, and a 2025 agent whose elicitation handler answers with
 * `content` (recording each question); `table` adds lines to the upstream's plugin table.
 */
async function mount(
  asked: string[],
  content: Record<string, string | number | boolean | string[]>,
  table: string[] = [],
): Promise<Connected & { sent: string[] }> {
  const url = await serveFixtures();
  const sent = methodsSentTo(url);
  const config = parseConfig(
    [
      '[plugins.up]',
      'use = "upstream"',
      `url = ${JSON.stringify(url)}`,
      'protocol = "2026-07-28"',
      ...table,
    ].join('\n'),
    '/proj/foresight.toml',
    '/proj',
  );
  const connected = await connect(
    { config, planner: { enabled: false }, logger: createMemoryLogger() },
    { capabilities: { elicitation: { form: {} } } },
    (client: Client) => {
      client.setRequestHandler('elicitation/create', (request) => {
        asked.push(request.params.message);
        return Promise.resolve({ action: 'accept', content });
      });
    },
  );
  onTestFinished(() => connected.close());
  await vi.waitFor(
    async () =>
      expect((await connected.client.listTools()).tools.map((t) => t.name)).toContain('up__failing_job'),
    { timeout: 15_000, interval: 50 },
  );
  return { ...connected, sent };
}

describe("a 2026-07-28 upstream's task-only tool", () => {
  it('keeps a tool error of the completed task as a result with isError', async () => {
    const { client, sent } = await mount([], {});
    const answer = await client.callTool({ name: 'up__failing_job', arguments: {} });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toBe('the job failed: its input was rejected by the build farm');
    // Refused plainly first (the listing does not say it runs only as a task), then made a task and polled.
    const calls = sent.filter((method) => method === 'tools/call' || method.startsWith('tasks/'));
    expect(calls.slice(0, 2)).toEqual(['tools/call', 'tools/call']);
    expect(calls.slice(2).every((method) => method === 'tasks/get')).toBe(true);
    expect(calls.length).toBeGreaterThan(2);
  });

  it("asks the agent what the upstream asks before making the task, and answers with the task's result", async () => {
    const asked: string[] = [];
    const { client } = await mount(asked, { name: 'Ada' });
    const answer = await client.callTool({ name: 'up__test_tool_with_task', arguments: {} });
    expect(answer.isError, textOf(answer)).toBeFalsy();
    expect(textOf(answer)).toBe('Hello, Ada! Your report is ready.');
    expect(asked).toEqual(['What is your name?']);
  });

  it('passes a question of the running task to the agent and answers it with tasks/update', async () => {
    const asked: string[] = [];
    // Configured as task-only: Foresight calls it as a task at once, and the upstream asks from within the task.
    const { client, sent } = await mount(asked, { confirm: true }, [
      'tasks = { confirm_delete = "required" }',
    ]);
    const answer = await client.callTool({ name: 'up__confirm_delete', arguments: { filename: 'a.txt' } });
    expect(answer.isError, textOf(answer)).toBeFalsy();
    expect(textOf(answer)).toBe('Deleted a.txt');
    expect(asked).toEqual(['Delete a.txt?']);
    // One call, as a task at once; the answer went to the task.
    expect(sent.filter((method) => method === 'tools/call')).toHaveLength(1);
    expect(sent).toContain('tasks/update');
  });

  it("cancels the upstream's task when the agent cancels its call", async () => {
    const { client, sent } = await mount([], {}, ['tasks = { slow_compute = "required" }']);
    const agent = new AbortController();
    const call = client.callTool(
      { name: 'up__slow_compute', arguments: { seconds: 30 } },
      { signal: agent.signal },
    );
    await vi.waitFor(() => expect(sent).toContain('tasks/get'), { timeout: 5_000, interval: 20 });
    agent.abort(new Error('the agent gave up'));
    await expect(call).rejects.toThrow('the agent gave up');
    await vi.waitFor(() => expect(sent).toContain('tasks/cancel'), { timeout: 5_000, interval: 20 });
  });

  it("cancels the upstream's task when the call's deadline passes", async () => {
    const { client, sent } = await mount([], {}, [
      'deadline_ms = 800',
      'tasks = { slow_compute = "required" }',
    ]);
    const answer = await client.callTool({ name: 'up__slow_compute', arguments: { seconds: 30 } });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toContain('800');
    await vi.waitFor(() => expect(sent).toContain('tasks/cancel'), { timeout: 5_000, interval: 20 });
  });

  it("answers a task the server failed with the server's error", async () => {
    // The fixture asks for roots, which this agent lacks: the server fails its task with -32021.
    const { client, sent } = await mount([], {}, ['tasks = { protocol_error_job = "required" }']);
    const answer = await client.callTool({ name: 'up__protocol_error_job', arguments: {} });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toContain('roots');
    expect(sent).toContain('tasks/get');
  });
});
