// Multi round-trip requests of 2026-07-28 clients over Streamable HTTP, on the wire: a plugin that asks through the
// contract answers input_required; the retry resumes the waiting call here, or replays it on another process that
// shares the key; requestState that is altered, foreign, expired, reused elsewhere or oversized is refused.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ForesightHost, createHost } from '../src/create-host.js';
import type { HttpServing } from '../src/protocol/index.js';
import { type AskingPlugin, askingPlugin } from './support/asking-plugin.js';
import { createMemoryLogger } from './support/in-memory.js';
import { type WireAnswer, modernPost } from './support/modern-wire.js';

const KEY = 'k'.repeat(48);
const ASKING = { elicitation: {}, sampling: {}, roots: {} };

interface Served {
  host: ForesightHost;
  http: HttpServing;
  asking: AskingPlugin;
}

const open: Served[] = [];

async function serve(options: { key?: string } = {}): Promise<Served> {
  const asking = askingPlugin();
  const host = createHost({
    plugins: [asking.plugin],
    requestStateKey: options.key ?? KEY,
    logger: createMemoryLogger(),
    planner: { enabled: false },
  });
  const http = await host.serveHttp({ port: 0 });
  const served = { host, http, asking };
  open.push(served);
  return served;
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((served) => served.host.close()));
});

const call = (
  url: string,
  name: string,
  args: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) =>
  modernPost(
    url,
    'tools/call',
    { name: `ask__${name}`, arguments: args, ...extra },
    { capabilities: ASKING },
  );

function inputRequired(answer: WireAnswer) {
  const result = answer.response?.result as
    | {
        resultType: string;
        inputRequests: Record<string, { method: string; params?: unknown }>;
        requestState: string;
      }
    | undefined;
  expect(answer.response?.error).toBeUndefined();
  expect(result?.resultType).toBe('input_required');
  return result!;
}

function text(answer: WireAnswer): string {
  const result = answer.response?.result as
    { resultType?: string; content?: { text?: string }[] } | undefined;
  expect(answer.response?.error).toBeUndefined();
  expect(result?.resultType).toBe('complete');
  return (result?.content ?? []).map((block) => block.text ?? '').join('');
}

describe('a plugin that asks a 2026-07-28 client for input', () => {
  it('answers input_required with the request under a numbered key and a signed requestState', async () => {
    const { http } = await serve();
    const first = inputRequired(await call(http.url, 'confirm', { what: 'the deploy' }));
    expect(first.inputRequests).toEqual({
      'elicitation-1': {
        method: 'elicitation/create',
        params: expect.objectContaining({ message: 'Go ahead with the deploy?' }),
      },
    });
    expect(first.requestState).toMatch(/^v1\./);
  });

  it('goes on with the waiting call when the retry comes back here: the work before the question runs once', async () => {
    const { http, asking } = await serve();
    const first = inputRequired(await call(http.url, 'confirm', { what: 'x' }));
    const retry = await call(
      http.url,
      'confirm',
      { what: 'x' },
      {
        inputResponses: { 'elicitation-1': { action: 'accept', content: { ok: true } } },
        requestState: first.requestState,
      },
    );
    expect(text(retry)).toBe('confirmed: true');
    expect(asking.starts.get('confirm')).toBe(1);
  });

  it('runs the call again on another process sharing the key, answering its question from the retry', async () => {
    const a = await serve();
    const b = await serve();
    const first = inputRequired(await call(a.http.url, 'confirm', { what: 'x' }));
    const retry = await call(
      b.http.url,
      'confirm',
      { what: 'x' },
      {
        inputResponses: { 'elicitation-1': { action: 'accept', content: { ok: true } } },
        requestState: first.requestState,
      },
    );
    expect(text(retry)).toBe('confirmed: true');
    // B ran the call from its start; A still holds its own, waiting.
    expect(b.asking.starts.get('confirm')).toBe(1);
    expect(a.asking.starts.get('confirm')).toBe(1);
  });

  it('carries earlier answers in the state, so a later round replays on another process with all of them', async () => {
    const a = await serve();
    const b = await serve();
    const round1 = inputRequired(await call(a.http.url, 'two_steps'));
    expect(Object.keys(round1.inputRequests)).toEqual(['name']);
    const round2 = inputRequired(
      await call(
        a.http.url,
        'two_steps',
        {},
        {
          inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
          requestState: round1.requestState,
        },
      ),
    );
    expect(Object.keys(round2.inputRequests)).toEqual(['colour']);
    expect(round2.requestState).not.toBe(round1.requestState);
    const done = await call(
      b.http.url,
      'two_steps',
      {},
      {
        inputResponses: { colour: { action: 'accept', content: { colour: 'green' } } },
        requestState: round2.requestState,
      },
    );
    expect(text(done)).toBe('Ada likes green');
    expect(a.asking.starts.get('two_steps')).toBe(1);
    expect(b.asking.starts.get('two_steps')).toBe(1);
  });

  it('asks everything a call asks before it waits in one round, and asks again for what a retry left out', async () => {
    const { http } = await serve();
    const first = inputRequired(await call(http.url, 'all_at_once'));
    expect(
      Object.fromEntries(Object.entries(first.inputRequests).map(([key, req]) => [key, req.method])),
    ).toEqual({
      'elicitation-1': 'elicitation/create',
      'sampling-1': 'sampling/createMessage',
      'roots-1': 'roots/list',
    });
    const partial = inputRequired(
      await call(
        http.url,
        'all_at_once',
        {},
        {
          inputResponses: {
            'elicitation-1': { action: 'decline' },
            'sampling-1': { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' },
            // Not an answer to roots/list: asked again.
            'roots-1': { roots: 'none' },
          },
          requestState: first.requestState,
        },
      ),
    );
    expect(Object.keys(partial.inputRequests)).toEqual(['roots-1']);
    const done = await call(
      http.url,
      'all_at_once',
      {},
      {
        inputResponses: { 'roots-1': { roots: [{ uri: 'file:///a' }] } },
        requestState: partial.requestState,
      },
    );
    expect(text(done)).toBe('decline / hello / 1 roots');
  });

  it('serves prompts/get the same way', async () => {
    const { http } = await serve();
    const first = await modernPost(
      http.url,
      'prompts/get',
      { name: 'ask__ask_prompt' },
      { capabilities: ASKING },
    );
    const state = inputRequired(first);
    const done = await modernPost(
      http.url,
      'prompts/get',
      {
        name: 'ask__ask_prompt',
        inputResponses: { 'elicitation-1': { action: 'accept', content: { topic: 'tides' } } },
        requestState: state.requestState,
      },
      { capabilities: ASKING },
    );
    expect(done.response?.result).toMatchObject({
      resultType: 'complete',
      messages: [{ role: 'user', content: { type: 'text', text: 'About tides' } }],
    });
  });

  it('refuses a call whose request does not declare the capability it needs: -32021 with HTTP 400', async () => {
    const { http } = await serve();
    const answer = await modernPost(
      http.url,
      'tools/call',
      { name: 'ask__confirm', arguments: {} },
      { capabilities: {} },
    );
    expect(answer.status).toBe(400);
    expect(answer.response?.error).toMatchObject({
      code: -32021,
      message: 'the connected client does not support elicitation',
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });
});

describe('requestState the server does not honour', () => {
  async function issued(served: Served) {
    return inputRequired(await call(served.http.url, 'confirm', { what: 'x' })).requestState;
  }
  const answer = { 'elicitation-1': { action: 'accept', content: { ok: true } } };

  async function refusedWith(promise: Promise<WireAnswer>, code: string, message: RegExp) {
    const refused = await promise;
    expect(refused.response?.error).toMatchObject({ code: -32602, data: { code } });
    expect(refused.response?.error?.message).toMatch(message);
  }

  it('altered: refused as failing its integrity check, and the server goes on serving', async () => {
    const served = await serve();
    const state = await issued(served);
    const tampered = `${state.slice(0, 20)}${state[20] === 'A' ? 'B' : 'A'}${state.slice(21)}`;
    await refusedWith(
      call(served.http.url, 'confirm', { what: 'x' }, { inputResponses: answer, requestState: tampered }),
      'E_REQUEST_STATE_INVALID',
      /failed its integrity check/,
    );
    expect(text(await call(served.http.url, 'no_questions'))).toBe('done');
  });

  it('signed by another key: refused the same way', async () => {
    const other = await serve({ key: 'z'.repeat(40) });
    const served = await serve();
    const state = await issued(other);
    await refusedWith(
      call(served.http.url, 'confirm', { what: 'x' }, { inputResponses: answer, requestState: state }),
      'E_REQUEST_STATE_INVALID',
      /not issued by this server/,
    );
  });

  it('sent back with another method or other arguments: refused, naming what it was issued for', async () => {
    const served = await serve();
    const state = await issued(served);
    await refusedWith(
      modernPost(
        served.http.url,
        'prompts/get',
        { name: 'ask__ask_prompt', inputResponses: answer, requestState: state },
        { capabilities: ASKING },
      ),
      'E_REQUEST_STATE_MISMATCH',
      /issued for tools\/call of "ask__confirm", not for prompts\/get of "ask__ask_prompt"/,
    );
    await refusedWith(
      call(served.http.url, 'confirm', { what: 'y' }, { inputResponses: answer, requestState: state }),
      'E_REQUEST_STATE_MISMATCH',
      /with other arguments/,
    );
  });

  it('from another caller: refused as foreign', async () => {
    const served = await serve();
    const state = await issued(served);
    const foreign = await modernPost(
      served.http.url,
      'tools/call',
      { name: 'ask__confirm', arguments: { what: 'x' }, inputResponses: answer, requestState: state },
      { capabilities: ASKING, localAddress: '127.0.0.2' },
    );
    expect(foreign.response?.error).toMatchObject({
      code: -32602,
      data: { code: 'E_REQUEST_STATE_FOREIGN' },
    });
    expect(foreign.response?.error?.message).toMatch(/issued to another caller/);
  });

  it('past its expiry: refused as expired, saying how long a state lives', async () => {
    const served = await serve();
    const state = await issued(served);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 301_000 });
    await refusedWith(
      call(served.http.url, 'confirm', { what: 'x' }, { inputResponses: answer, requestState: state }),
      'E_REQUEST_STATE_EXPIRED',
      /expired \(it is valid for 300 s\)/,
    );
  });

  it('of 1 MB: refused before anything is decoded, and the server goes on serving', async () => {
    const served = await serve();
    await refusedWith(
      call(
        served.http.url,
        'confirm',
        { what: 'x' },
        { inputResponses: answer, requestState: 'v1.'.padEnd(1 << 20, 'x') },
      ),
      'E_REQUEST_STATE_TOO_LARGE',
      /1048576 bytes, over the 65536-byte limit/,
    );
    expect(text(await call(served.http.url, 'no_questions'))).toBe('done');
  });
});
