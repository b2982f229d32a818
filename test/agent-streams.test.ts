// Agent streams of requests without a session: one per id, closed when idle or when too many are open.
import { describe, expect, it } from 'vitest';
import { AgentStreams, type ToolService } from '../src/protocol/index.js';

function streamsWith(options: { idleMs?: number; maxStreams?: number }) {
  let clock = 0;
  const opened: string[] = [];
  const closed: string[] = [];
  const streams = new AgentStreams({
    ...options,
    now: () => clock,
    open: ({ id, principal }) => {
      opened.push(`${id}/${principal}`);
      return { dispose: () => closed.push(id) } as unknown as ToolService;
    },
  });
  return { streams, opened, closed, advance: (ms: number) => (clock += ms) };
}

describe('AgentStreams', () => {
  it('opens a stream once per id and serves it again while it is in use', () => {
    const { streams, opened, closed } = streamsWith({});
    const first = streams.get('a', 'p');
    expect(streams.get('a', 'p')).toBe(first);
    expect(opened).toEqual(['a/p']);
    expect(closed).toEqual([]);
    streams.closeAll();
    expect(closed).toEqual(['a']);
  });

  it('closes a stream idle for longer than idleMs, and opens a fresh one on its next request', () => {
    const { streams, opened, closed, advance } = streamsWith({ idleMs: 1000 });
    const first = streams.get('a', 'p');
    advance(900);
    expect(streams.get('a', 'p')).toBe(first);
    advance(900);
    expect(streams.get('a', 'p')).toBe(first);
    advance(1001);
    const second = streams.get('a', 'p');
    expect(second).not.toBe(first);
    expect(closed).toEqual(['a']);
    expect(opened).toEqual(['a/p', 'a/p']);
    streams.closeAll();
  });

  it('closes the least recently used stream when more than maxStreams are open', () => {
    const { streams, closed } = streamsWith({ maxStreams: 2 });
    streams.get('a', 'p');
    streams.get('b', 'p');
    streams.get('a', 'p');
    streams.get('c', 'p');
    expect(closed).toEqual(['b']);
    expect(streams.size).toBe(2);
    streams.closeAll();
    expect(closed.sort()).toEqual(['a', 'b', 'c']);
  });
});
