// The bounds of multi round-trip requests: a call that never stops asking, one that asks twice under one key, and
// a call whose deadline passes while it waits for the retry (the retry then runs it again).
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type ForesightHost, createHost } from '../src/create-host.js';
import { type AskingPlugin, askingPlugin } from './support/asking-plugin.js';
import { createMemoryLogger } from './support/in-memory.js';
import { type WireAnswer, modernPost } from './support/modern-wire.js';

const CAPABILITIES = { elicitation: {}, sampling: {}, roots: {} };
let host: ForesightHost | undefined;

afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function serve(callToolMs?: number): Promise<{ url: string; asking: AskingPlugin }> {
  const asking = askingPlugin();
  host = createHost({
    plugins: [{ plugin: asking.plugin, ...(callToolMs ? { deadlines: { callTool: callToolMs } } : {}) }],
    logger: createMemoryLogger(),
    planner: { enabled: false },
  });
  const { url } = await host.serveHttp({ port: 0 });
  return { url, asking };
}

const call = (url: string, name: string, extra: Record<string, unknown> = {}) =>
  modernPost(
    url,
    'tools/call',
    { name: `ask__${name}`, arguments: {}, ...extra },
    { capabilities: CAPABILITIES },
  );

const stateOf = (answer: WireAnswer) =>
  (answer.response?.result as { requestState?: string } | undefined)?.requestState;

describe('bounds of multi round-trip requests', () => {
  it('ends a call that asks more than 16 rounds in a row, with a JSON-RPC error saying so', async () => {
    const { url } = await serve();
    let answer = await call(url, 'endless');
    for (let round = 1; round < 16; round += 1) {
      const key = Object.keys((answer.response?.result as { inputRequests: object }).inputRequests)[0]!;
      answer = await call(url, 'endless', {
        inputResponses: { [key]: { action: 'accept', content: { ok: true } } },
        requestState: stateOf(answer),
      });
      expect(answer.response?.result, `round ${round + 1}`).toMatchObject({ resultType: 'input_required' });
    }
    const key = Object.keys((answer.response?.result as { inputRequests: object }).inputRequests)[0]!;
    const ended = await call(url, 'endless', {
      inputResponses: { [key]: { action: 'accept', content: { ok: true } } },
      requestState: stateOf(answer),
    });
    expect(ended.response?.error).toMatchObject({ code: -32602, data: { code: 'E_INPUT_ROUNDS_EXCEEDED' } });
    expect(ended.response?.error?.message).toMatch(/asked the client for input 16 times without finishing/);
  });

  it('refuses a second question under a key still waiting for its answer', async () => {
    const { url } = await serve();
    const answer = await call(url, 'same_key_twice');
    expect(answer.response?.result).toMatchObject({
      isError: true,
      _meta: { 'foresight/error': { code: 'E_INPUT_KEY_REUSED' } },
    });
  });

  it('runs the call again when its deadline passed while it waited for the retry', async () => {
    const { url, asking } = await serve(100);
    const first = await call(url, 'confirm');
    expect(first.response?.result).toMatchObject({ resultType: 'input_required' });
    // The waiting call ends at its 100 ms deadline; the state stays valid for 300 s.
    await sleep(400);
    const retry = await call(url, 'confirm', {
      inputResponses: { 'elicitation-1': { action: 'accept', content: { ok: true } } },
      requestState: stateOf(first),
    });
    expect(retry.response?.result).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'confirmed: true' }],
    });
    expect(asking.starts.get('confirm')).toBe(2);
  });
});
