// Issue 6, point 1: what the protocol carries passes through an upstream mount. A real Foresight host (the
// agent's SDK client on an in-memory link) mounts the real server-everything under the prefix `ev`, over stdio
// with its traffic recorded (support/stdio-recorder.mjs: to see what the server itself got and sent), and
// over Streamable HTTP. Each test asserts what the agent's client receives.
import {
  Client,
  type ClientCapabilities,
  type LoggingLevel,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { EVERYTHING, type EverythingHttp, startEverythingHttp } from './support/everything-http.js';
import { type Connected, connect, createMemoryLogger, textOf } from './support/in-memory.js';
import { type WireMessage, recorded, recordedServerToml } from './support/stdio-recording.js';

const LEVELS: LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];
/** What server-everything's simulated logging sends for each level (server/logging.js; "Alert" is its typo). */
const SIMULATED: Record<LoggingLevel, string> = {
  debug: 'Debug-level message',
  info: 'Info-level message',
  notice: 'Notice-level message',
  warning: 'Warning-level message',
  error: 'Error-level message',
  critical: 'Critical-level message',
  alert: 'Alert level-message',
  emergency: 'Emergency-level message',
};
const POLL = { timeout: 15_000, interval: 50 };

interface Mounted extends Connected {
  /** Foresight's log records (memory logger). */
  records: Record<string, unknown>[];
  /** Where the stdio server's traffic is recorded (read with `recorded`); '' over HTTP. */
  wire: string;
}

let connected: Connected | undefined;
let dir: string | undefined;

afterEach(async () => {
  await connected?.close();
  connected = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A fresh temp dir for this test (removed after it). */
async function tempDir(): Promise<string> {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'foresight-passthrough-')));
  return dir;
}

/** The upstream connects in the background: wait until `tool` is listed. */
async function waitForTool(c: Connected, tool: string): Promise<void> {
  await vi.waitFor(async () => {
    expect((await c.client.listTools()).tools.map((t) => t.name)).toContain(tool);
  }, POLL);
}

/** Foresight with server-everything over stdio under `ev`, reached by a client with `capabilities`. */
async function mountStdio(
  options: {
    capabilities?: ClientCapabilities;
    extra?: string[];
    tool?: string;
    prepare?: (client: Client) => void;
  } = {},
): Promise<Mounted> {
  const wire = join(await tempDir(), 'wire');
  const records: Record<string, unknown>[] = [];
  const config = parseConfig(
    [
      '[plugins.ev]',
      'use = "upstream"',
      ...recordedServerToml(wire, EVERYTHING),
      ...(options.extra ?? []),
    ].join('\n'),
    '/proj/foresight.toml',
    '/proj',
  );
  const c = await connect(
    { config, planner: { enabled: false }, logger: createMemoryLogger(records) },
    { capabilities: options.capabilities ?? {} },
    options.prepare,
  );
  connected = c;
  await waitForTool(c, options.tool ?? 'ev__echo');
  return { ...c, records, wire };
}

/** Every `notifications/message` the agent's client receives. */
function collectLogs(c: Connected): LoggingMessageNotification['params'][] {
  const logs: LoggingMessageNotification['params'][] = [];
  c.client.setNotificationHandler('notifications/message', (notification) => {
    logs.push(notification.params);
  });
  return logs;
}

/** The stdio server's requests as it read them, of method `method`. */
async function requestsTo(wire: string, method: string): Promise<WireMessage[]> {
  return (await recorded(wire, 'in')).filter((m) => m.method === method && m.id !== undefined);
}

/** Waits until the server has read `notifications/cancelled` for the request `id`, and for no other. */
async function expectCancelled(wire: string, id: unknown): Promise<void> {
  await vi.waitFor(async () => {
    const cancelled = (await recorded(wire, 'in')).filter((m) => m.method === 'notifications/cancelled');
    expect(cancelled.map((m) => m.params?.requestId)).toEqual([id]);
  }, POLL);
}

/**
 * Calls the 4-step operation with a progress token: the agent's client gets every step in order with its
 * total, then the result. (Foresight handles the server's progress itself: the SDK client's `onprogress` drops
 * a last step read in the same chunk as the result, as it handles the response first.)
 */
async function expectProgress(c: Connected, tool: string): Promise<void> {
  const progress: Progress[] = [];
  const result = await c.client.callTool(
    { name: tool, arguments: { duration: 1, steps: 4 } },
    { onprogress: (p) => progress.push(p) },
  );
  expect(textOf(result)).toBe('Long running operation completed. Duration: 1 seconds, Steps: 4.');
  expect(progress).toEqual([1, 2, 3, 4].map((step) => ({ progress: step, total: 4 })));
}

describe('upstream pass-through over stdio: server-everything under `ev`', () => {
  it('progress: the notifications of the call reach the agent in order, with their total, then the result', async () => {
    const c = await mountStdio({ tool: 'ev__trigger-long-running-operation' });
    await expectProgress(c, 'ev__trigger-long-running-operation');
    // The server was asked with a progress token, and sent every step for it.
    const [call] = (await requestsTo(c.wire, 'tools/call')).filter(
      (m) => m.params?.name === 'trigger-long-running-operation',
    );
    const token = call?.params?._meta?.progressToken;
    expect(token).toBeDefined();
    const sent = (await recorded(c.wire, 'out')).filter(
      (m) => m.method === 'notifications/progress' && m.params?.progressToken === token,
    );
    expect(sent.map((m) => m.params?.progress)).toEqual([1, 2, 3, 4]);
  });

  it('progress: a call the agent made without a progress token reaches the server without one', async () => {
    const c = await mountStdio({ tool: 'ev__echo' });
    const result = await c.client.callTool({ name: 'ev__echo', arguments: { message: 'quiet' } });
    expect(textOf(result)).toBe('Echo: quiet');
    const [call] = (await requestsTo(c.wire, 'tools/call')).filter((m) => m.params?.name === 'echo');
    expect(call?.params?.arguments).toEqual({ message: 'quiet' });
    expect(call?.params?._meta?.progressToken).toBeUndefined();
  });

  it('logging: a message the server logs during a call reaches the agent with its level and data', async () => {
    const c = await mountStdio({ tool: 'ev__toggle-simulated-logging' });
    const logs = collectLogs(c);
    // Turning simulated logging on sends one message of a random level at once, during the call.
    const on = await c.client.callTool({ name: 'ev__toggle-simulated-logging', arguments: {} });
    expect(textOf(on)).toContain('Started simulated, random-leveled logging');
    await vi.waitFor(() => expect(logs).toHaveLength(1), POLL);
    const [log] = logs;
    expect(LEVELS).toContain(log?.level);
    expect(log).toEqual({ level: log?.level, data: SIMULATED[log?.level ?? 'debug'] });
    // server-everything gives this message no logger name, and Foresight adds none.
    expect(log).not.toHaveProperty('logger');
    // Exactly what the server sent.
    const sent = (await recorded(c.wire, 'out')).filter((m) => m.method === 'notifications/message');
    expect(sent.map((m) => m.params)).toContainEqual(log);
    const off = await c.client.callTool({ name: 'ev__toggle-simulated-logging', arguments: {} });
    expect(textOf(off)).toContain('Stopped simulated logging');
  });

  it('logging/setLevel: the agent gets the server’s messages at or above its level, and none below', async () => {
    const c = await mountStdio({ tool: 'ev__toggle-simulated-logging' });
    const logs = collectLogs(c);
    await c.client.setLoggingLevel('warning');
    const atOrAbove = (level: LoggingLevel) => LEVELS.indexOf(level) >= LEVELS.indexOf('warning');
    // Foresight does not pass the level upstream, so the server sends every level and Foresight filters.
    // Each "on" sends one message of a random level; toggle until both sides of the filter were exercised.
    const simulated = async () =>
      (await recorded(c.wire, 'out'))
        .filter((m) => m.method === 'notifications/message' && m.params?.logger === undefined)
        .map((m) => m.params?.level as LoggingLevel);
    for (let round = 0; round < 40; round += 1) {
      await c.client.callTool({ name: 'ev__toggle-simulated-logging', arguments: {} });
      await c.client.callTool({ name: 'ev__toggle-simulated-logging', arguments: {} });
      const levels = await simulated();
      if (levels.some(atOrAbove) && !levels.every(atOrAbove)) break;
    }
    const sent = await simulated();
    expect(sent.filter((level) => !atOrAbove(level)).length).toBeGreaterThan(0);
    expect(sent.filter(atOrAbove).length).toBeGreaterThan(0);
    // A message the server sent outside any call (a 5 s tick of its interval) goes to Foresight's log instead.
    const outside = c.records
      .filter((r) => r.msg === 'upstream: log message' && r.logger === undefined)
      .map((r) => String(r.data));
    const during = [...sent];
    for (const data of outside) {
      const at = during.findIndex((level) => SIMULATED[level] === data);
      if (at >= 0) during.splice(at, 1);
    }
    const expected = during.filter(atOrAbove);
    await vi.waitFor(() => expect(logs.map((log) => log.level).sort()).toEqual([...expected].sort()), POLL);
    for (const log of logs) expect(log.data).toBe(SIMULATED[log.level]);
  });

  it('roots: the one agent’s roots reach the server outside a call too, and again when the agent says they changed', async () => {
    let roots = [{ uri: 'file:///agent/project', name: 'project' }];
    const c = await mountStdio({
      capabilities: { roots: { listChanged: true } },
      tool: 'ev__get-roots-list',
      prepare: (client) => client.setRequestHandler('roots/list', () => ({ roots })),
    });
    // server-everything asks for roots after initialise, outside any call: with one agent connected, Foresight
    // answers with that agent's roots. The server says so in a log message, which goes to Foresight's log.
    await vi.waitFor(
      () =>
        expect(c.records).toContainEqual(
          expect.objectContaining({
            msg: 'upstream: log message',
            logger: 'everything-server',
            data: 'Roots updated: 1 root(s) received from client',
          }),
        ),
      POLL,
    );
    const listed = await c.client.callTool({ name: 'ev__get-roots-list', arguments: {} });
    expect(textOf(listed)).toContain('file:///agent/project');

    // The agent's roots change: Foresight tells the server, which asks again and sees the new ones.
    roots = [{ uri: 'file:///agent/other', name: 'other' }];
    await c.client.sendRootsListChanged();
    await vi.waitFor(async () => {
      const again = await c.client.callTool({ name: 'ev__get-roots-list', arguments: {} });
      expect(textOf(again)).toContain('file:///agent/other');
    }, POLL);
    // On the wire: the server asked outside a call and got the agent's roots, then asked again and got the new ones.
    const asks = (await recorded(c.wire, 'out')).filter((m) => m.method === 'roots/list');
    const answers = (await recorded(c.wire, 'in'))
      .filter((m) => m.method === undefined && asks.some((ask) => ask.id === m.id))
      .map((m) => JSON.stringify(m.result));
    expect(answers.some((answer) => answer.includes('file:///agent/project'))).toBe(true);
    expect(answers.at(-1)).toContain('file:///agent/other');
  });

  it('roots: with `roots = [dir]` in the upstream table the server gets that directory as a file URI', async () => {
    const root = await tempDir();
    const asked: string[] = [];
    const c = await mountStdio({
      capabilities: { roots: {} },
      extra: [`roots = [${JSON.stringify(root)}]`],
      tool: 'ev__get-roots-list',
    });
    c.client.setRequestHandler('roots/list', () => {
      asked.push('roots/list');
      return { roots: [{ uri: 'file:///agent/project', name: 'project' }] };
    });
    const listed = await c.client.callTool({ name: 'ev__get-roots-list', arguments: {} });
    const uri = pathToFileURL(root).href;
    expect(textOf(listed)).toContain(`Current MCP Roots (1 total):\n\n1. ${basename(root)}\n   URI: ${uri}`);
    expect(textOf(listed)).not.toContain('file:///agent/project');
    // The configured roots answer for the agent too: its client is not asked.
    expect(asked).toEqual([]);
  });

  it('completion: prompt arguments (with context) and resource template variables complete through the prefix', async () => {
    const c = await mountStdio();
    const prompts = (await c.client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toContain('ev__completable-prompt');

    const departments = await c.client.complete({
      ref: { type: 'ref/prompt', name: 'ev__completable-prompt' },
      argument: { name: 'department', value: 'S' },
    });
    expect(departments.completion).toEqual({ values: ['Sales', 'Support'], total: 2, hasMore: false });

    // The second argument's values depend on the first, given as context.
    const names = await c.client.complete({
      ref: { type: 'ref/prompt', name: 'ev__completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Engineering' } },
    });
    expect(names.completion.values).toEqual(['Alice', 'Bob', 'Charlie']);

    const ids = await c.client.complete({
      ref: { type: 'ref/resource', uri: 'ev://demo://resource/dynamic/text/{resourceId}' },
      argument: { name: 'resourceId', value: '7' },
    });
    expect(ids.completion.values).toEqual(['7']);
    const none = await c.client.complete({
      ref: { type: 'ref/resource', uri: 'ev://demo://resource/dynamic/text/{resourceId}' },
      argument: { name: 'resourceId', value: 'seven' },
    });
    expect(none.completion.values).toEqual([]);

    // The server got its own names.
    const asked = (await requestsTo(c.wire, 'completion/complete')).map((m) => m.params?.ref);
    expect(asked).toEqual([
      { type: 'ref/prompt', name: 'completable-prompt' },
      { type: 'ref/prompt', name: 'completable-prompt' },
      { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
      { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
    ]);
  });

  it('cancellation: the agent’s cancel rejects its call, reaches the server, no late result follows, and Foresight goes on serving', async () => {
    const c = await mountStdio({ tool: 'ev__trigger-long-running-operation' });
    const errors: string[] = [];
    c.client.onerror = (error) => errors.push(error.message);
    const cancel = new AbortController();
    const progress: Progress[] = [];
    // Cancelled on the first step, so the server is at it.
    const outcome = await c.client
      .callTool(
        { name: 'ev__trigger-long-running-operation', arguments: { duration: 2, steps: 4 } },
        {
          signal: cancel.signal,
          onprogress: (p) => {
            progress.push(p);
            cancel.abort(new Error('the agent changed its mind'));
          },
        },
      )
      .then(
        () => 'resolved',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
    expect(outcome).toContain('the agent changed its mind');

    // The server got `notifications/cancelled` for its request.
    const [request] = (await requestsTo(c.wire, 'tools/call')).filter(
      (m) => m.params?.name === 'trigger-long-running-operation',
    );
    expect(request?.id).toBeDefined();
    await expectCancelled(c.wire, request?.id);

    // server-everything ignores the cancellation and runs to its last step; once that is out, the SDK under
    // it drops the result of the cancelled request. Then a call goes through, and nothing late arrived.
    await vi.waitFor(async () => {
      const steps = (await recorded(c.wire, 'out')).filter(
        (m) =>
          m.method === 'notifications/progress' &&
          m.params?.progressToken === request?.params?._meta?.progressToken,
      );
      expect(steps.map((m) => m.params?.progress)).toContain(4);
    }, POLL);
    const echoed = await c.client.callTool({
      name: 'ev__echo',
      arguments: { message: 'still serving' },
    });
    expect(textOf(echoed)).toBe('Echo: still serving');
    const out = await recorded(c.wire, 'out');
    expect(out.filter((m) => m.id === request?.id && m.method === undefined)).toEqual([]);
    expect(progress).toEqual([{ progress: 1, total: 4 }]);
    expect(errors).toEqual([]);
  });

  it('deadline: the agent hears of it at once, and the server gets a cancellation for the request', async () => {
    const c = await mountStdio({ extra: ['deadline_ms = 300'], tool: 'ev__trigger-long-running-operation' });
    const slow = await c.client.callTool({
      name: 'ev__trigger-long-running-operation',
      arguments: { duration: 5, steps: 5 },
    });
    expect(textOf(slow)).toContain('did not finish within its deadline of 300 ms');
    const [request] = (await requestsTo(c.wire, 'tools/call')).filter(
      (m) => m.params?.name === 'trigger-long-running-operation',
    );
    expect(request?.id).toBeDefined();
    await expectCancelled(c.wire, request?.id);
  });

  it('shutdown: Foresight closes the server without cancelling requests it answered long ago', async () => {
    const c = await mountStdio();
    expect(textOf(await c.client.callTool({ name: 'ev__echo', arguments: { message: 'x' } }))).toBe(
      'Echo: x',
    );
    // Answered long ago, as the test means it: the in-memory pair hands the answer over before the server side
    // has finished the request, and a session that closes inside that window cancels it (which the spec lets
    // a server ignore). A round trip more and it is done.
    await c.client.ping();
    await c.close();
    connected = undefined;
    // Everything the server read: initialize, the catalog reads, the call, and no cancellation of any of them.
    const read = await recorded(c.wire, 'in');
    expect(read.map((m) => m.method)).toEqual(
      expect.arrayContaining(['initialize', 'tools/list', 'tools/call']),
    );
    expect(read.filter((m) => m.method === 'notifications/cancelled')).toEqual([]);
  });

  it('structured content: the result keeps structuredContent; outputSchema and annotations are listed as the server lists them', async () => {
    const c = await mountStdio({ tool: 'ev__get-structured-content' });
    const result = await c.client.callTool({
      name: 'ev__get-structured-content',
      arguments: { location: 'Chicago' },
    });
    const weather = { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 };
    expect(result.structuredContent).toEqual(weather);
    expect(JSON.parse(textOf(result))).toEqual(weather);
    expect(result.isError).toBeFalsy();

    // The server's own listing, from a plain SDK client connected to it directly.
    const direct = new Client({ name: 'direct', version: '1.0.0' }, { capabilities: {} });
    await direct.connect(new StdioClientTransport({ command: 'node', args: [EVERYTHING], stderr: 'ignore' }));
    try {
      const theirs = (await direct.listTools()).tools;
      const ours = (await c.client.listTools()).tools;
      const own = theirs.find((tool) => tool.name === 'get-structured-content');
      const published = ours.find((tool) => tool.name === 'ev__get-structured-content');
      expect(own?.outputSchema).toMatchObject({
        type: 'object',
        required: ['temperature', 'conditions', 'humidity'],
      });
      expect(published?.outputSchema).toEqual(own?.outputSchema);
      expect(published?.annotations).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(published).toEqual({ ...own, name: 'ev__get-structured-content' });
      // And every other tool the direct client sees, unchanged but for the prefix, and for a task support that
      // offers tasks: Foresight serves a 2025 client none, so it is not promised any.
      for (const tool of theirs) {
        const offersTasks = ['optional', 'required'].includes(tool.execution?.taskSupport ?? '');
        const { execution: _execution, ...withoutExecution } = tool;
        expect(ours.find((t) => t.name === `ev__${tool.name}`)).toEqual({
          ...(offersTasks ? withoutExecution : tool),
          name: `ev__${tool.name}`,
        });
      }
      expect(theirs.some((tool) => tool.execution?.taskSupport === 'required')).toBe(true);
    } finally {
      await direct.close();
    }
  });
});

describe('upstream pass-through over Streamable HTTP: server-everything under `ev`', () => {
  let server: EverythingHttp | undefined;

  beforeAll(async () => {
    server = await startEverythingHttp();
  });

  afterAll(async () => {
    await server?.kill();
  });

  async function mountHttp(tool: string): Promise<Mounted> {
    const records: Record<string, unknown>[] = [];
    const config = parseConfig(
      ['[plugins.ev]', 'use = "upstream"', `url = ${JSON.stringify(server?.url)}`].join('\n'),
      '/proj/foresight.toml',
      '/proj',
    );
    const c = await connect({ config, planner: { enabled: false }, logger: createMemoryLogger(records) });
    connected = c;
    await waitForTool(c, tool);
    return { ...c, records, wire: '' };
  }

  it('progress: the notifications of the call reach the agent in order, with their total, then the result', async () => {
    const c = await mountHttp('ev__trigger-long-running-operation');
    await expectProgress(c, 'ev__trigger-long-running-operation');
  });

  it('logging: a message the server logs during a call reaches the agent with its level and data', async () => {
    const c = await mountHttp('ev__toggle-simulated-logging');
    const logs = collectLogs(c);
    const on = await c.client.callTool({ name: 'ev__toggle-simulated-logging', arguments: {} });
    expect(textOf(on)).toContain('Started simulated, random-leveled logging for session');
    const session = /for session (\S+) at/.exec(textOf(on))?.[1];
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    await vi.waitFor(() => expect(logs).toHaveLength(1), POLL);
    const [log] = logs;
    expect(LEVELS).toContain(log?.level);
    expect(log).toEqual({
      level: log?.level,
      data: `${SIMULATED[log?.level ?? 'debug']} - SessionId ${session}`,
    });
    await c.client.callTool({ name: 'ev__toggle-simulated-logging', arguments: {} });
  });
});
