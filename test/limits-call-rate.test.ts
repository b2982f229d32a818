// The call rate per client: a token bucket holding a minute's worth of calls, refilled evenly, on an injected clock.
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import { CallRateExceeded, CallRateLimiter } from '../src/protocol/call-rate.js';
import { askingPlugin } from './support/asking-plugin.js';
import { createMemoryLogger } from './support/in-memory.js';
import { type WireAnswer, modernPost } from './support/modern-wire.js';

function limiter(perMinute: number) {
  let nowMs = 0;
  return {
    rate: new CallRateLimiter({ perMinute, now: () => nowMs }),
    advance: (ms: number) => {
      nowMs += ms;
    },
  };
}

function refusal(take: () => void): CallRateExceeded {
  try {
    take();
  } catch (error) {
    if (error instanceof CallRateExceeded) return error;
    throw error;
  }
  throw new Error('the call was not refused');
}

describe('CallRateLimiter', () => {
  it('lets a minute’s worth of calls through at once, refuses the next, and says when to retry', () => {
    const { rate } = limiter(6);
    for (let i = 0; i < 6; i += 1) rate.take('a');
    const refused = refusal(() => rate.take('a'));
    expect(refused.perMinute).toBe(6);
    expect(refused.retryAfterS).toBe(10); // one call every 10 s
  });

  it('refills evenly: one more call every minute ÷ limit', () => {
    const { rate, advance } = limiter(6);
    for (let i = 0; i < 6; i += 1) rate.take('a');
    advance(9_999);
    expect(refusal(() => rate.take('a')).retryAfterS).toBe(1);
    advance(1);
    rate.take('a');
    expect(() => rate.take('a')).toThrow(CallRateExceeded);
    advance(60_000);
    for (let i = 0; i < 6; i += 1) rate.take('a');
    expect(() => rate.take('a')).toThrow(CallRateExceeded);
  });

  it('counts each client apart, and a refused call costs nothing', () => {
    const { rate, advance } = limiter(2);
    rate.take('a');
    rate.take('a');
    for (let i = 0; i < 5; i += 1) expect(() => rate.take('a')).toThrow(CallRateExceeded);
    rate.take('b');
    rate.take('b');
    advance(30_000);
    rate.take('a'); // the refused calls did not push a's next call further out
  });

  it('0 is no limit', () => {
    const { rate } = limiter(0);
    expect(rate.limited).toBe(false);
    for (let i = 0; i < 10_000; i += 1) rate.take('a');
  });
});

describe('[server.limits] max_calls_per_minute_per_client', () => {
  const limits = (text: string) => parseConfig(text, '/test/foresight.toml', '/test').server.limits;

  it('is off (0) by default and takes a count', () => {
    expect(limits('').maxCallsPerMinutePerClient).toBe(0);
    expect(
      limits('[server.limits]\nmax_calls_per_minute_per_client = 120\n').maxCallsPerMinutePerClient,
    ).toBe(120);
  });

  it('a bad value is named with its key and what is allowed', () => {
    expect(() => limits('[server.limits]\nmax_calls_per_minute_per_client = -1\n')).toThrow(
      /server\.limits\.max_calls_per_minute_per_client: .*0/,
    );
  });
});

describe('the rate over multi round-trip requests', () => {
  let host: ForesightHost | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it('a 2026-07-28 retry answering the server’s question is the same call: it is not counted again', async () => {
    host = createHost({
      plugins: [{ plugin: askingPlugin().plugin }],
      logger: createMemoryLogger(),
      planner: { enabled: false },
      limits: { maxCallsPerMinutePerClient: 1 },
    });
    const { url } = await host.serveHttp({ port: 0 });
    const call = (extra: Record<string, unknown> = {}) =>
      modernPost(
        url,
        'tools/call',
        { name: 'ask__confirm', arguments: {}, ...extra },
        { capabilities: { elicitation: {} } },
      );
    const resultOf = (answer: WireAnswer) => answer.response?.result as Record<string, unknown> | undefined;

    const first = await call();
    expect(resultOf(first)).toMatchObject({ resultType: 'input_required' });
    const retry = await call({
      inputResponses: { 'elicitation-1': { action: 'accept', content: { ok: true } } },
      requestState: resultOf(first)?.requestState,
    });
    expect(resultOf(retry)).toMatchObject({ resultType: 'complete', content: [{ text: 'confirmed: true' }] });
    // A new call is a second call in the minute: refused.
    expect(resultOf(await call())).toMatchObject({
      isError: true,
      _meta: { 'foresight/error': { code: 'E_RATE_LIMITED', kind: 'unavailable' } },
    });
  });
});
