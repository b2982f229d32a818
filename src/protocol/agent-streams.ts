// The planner's view per agent stream for requests that carry no session: opened on first use, closed when idle or
// when too many are open (least recently used first).
import { LRUCache } from 'lru-cache';
import type { StreamOrigin, ToolService } from './tool-service.js';

export interface AgentStreamsOptions {
  /** Opens the tools of one stream (the planner's `openSession`). */
  open(stream: StreamOrigin): ToolService;
  /** A stream with no request for this long is closed (its learning windows and cached results go). Default 30 min. */
  idleMs?: number;
  /** At most this many streams are kept; the least recently used is closed first. Default 4096. */
  maxStreams?: number;
  /** Clock in ms. Default `performance.now`. */
  now?: () => number;
}

export class AgentStreams {
  private readonly streams: LRUCache<string, ToolService>;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: AgentStreamsOptions) {
    const idleMs = options.idleMs ?? 30 * 60_000;
    this.streams = new LRUCache<string, ToolService>({
      max: options.maxStreams ?? 4096,
      ttl: idleMs,
      updateAgeOnGet: true,
      // Closed however it leaves: idle, pushed out, or at closeAll.
      dispose: (tools) => tools.dispose?.(),
      // An injected clock is read on every look-up (no cached time).
      ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    });
    // Idle streams are closed on a timer too, not only when next looked up, so their windows are counted.
    this.sweeper = setInterval(() => this.streams.purgeStale(), Math.min(idleMs, 60_000));
    this.sweeper.unref();
  }

  /** The tools of stream `id` for `principal`, opened on first use (told how the stream is connected). */
  get(id: string, principal: string, via: Pick<StreamOrigin, 'era' | 'transport'> = {}): ToolService {
    let tools = this.streams.get(id);
    if (!tools) {
      tools = this.options.open({ id, principal, ...via });
      this.streams.set(id, tools);
    }
    return tools;
  }

  get size(): number {
    return this.streams.size;
  }

  closeAll(): void {
    clearInterval(this.sweeper);
    this.streams.clear();
  }
}
