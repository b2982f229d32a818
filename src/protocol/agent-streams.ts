// The planner's view per agent stream for requests that carry no session: opened on first use, closed when idle.
import type { ToolService } from './tool-service.js';

export interface AgentStreamsOptions {
  /** Opens the tools of one stream (the planner's `openSession`). */
  open(stream: { id: string; principal: string }): ToolService;
  /** A stream with no request for this long is closed (its learning windows and cached results go). Default 30 min. */
  idleMs?: number;
  /** At most this many streams are kept; the least recently used is closed first. Default 4096. */
  maxStreams?: number;
  /** Clock in ms. Default `Date.now`. */
  now?: () => number;
}

interface LiveStream {
  tools: ToolService;
  lastSeenMs: number;
}

export class AgentStreams {
  private readonly streams = new Map<string, LiveStream>();
  private readonly idleMs: number;
  private readonly maxStreams: number;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: AgentStreamsOptions) {
    this.idleMs = options.idleMs ?? 30 * 60_000;
    this.maxStreams = options.maxStreams ?? 4096;
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => this.sweep(), Math.min(this.idleMs, 60_000));
    this.sweeper.unref();
  }

  /** The tools of stream `id` for `principal`, opened on first use. */
  get(id: string, principal: string): ToolService {
    const live = this.streams.get(id);
    if (live) {
      live.lastSeenMs = this.now();
      // Re-inserted so the map's order is least recently used first.
      this.streams.delete(id);
      this.streams.set(id, live);
      return live.tools;
    }
    const tools = this.options.open({ id, principal });
    this.streams.set(id, { tools, lastSeenMs: this.now() });
    if (this.streams.size > this.maxStreams) {
      const [oldest] = this.streams.keys();
      if (oldest !== undefined) this.close(oldest);
    }
    return tools;
  }

  get size(): number {
    return this.streams.size;
  }

  /** Closes streams idle for longer than `idleMs`. */
  sweep(): void {
    const cutoff = this.now() - this.idleMs;
    for (const [id, live] of this.streams) if (live.lastSeenMs < cutoff) this.close(id);
  }

  closeAll(): void {
    clearInterval(this.sweeper);
    for (const id of [...this.streams.keys()]) this.close(id);
  }

  private close(id: string): void {
    const live = this.streams.get(id);
    this.streams.delete(id);
    live?.tools.dispose?.();
  }
}
