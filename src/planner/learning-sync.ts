// Shares what each principal's learner counts with the other processes of a cluster: pushes what it counted since
// the last exchange, reads the merged totals back, and gives each learner the others' part of them.
import type { Logger } from '../contract/index.js';
import { type LearnedCounts, type LearnedEdgeState, edgeKey } from './learned-state.js';
import type { LearnerPool } from './learner-pool.js';
import type { TransitionLearner } from './learning.js';
import type { PrincipalDelta, SharedLearning } from './shared-learning.js';

/** Principals per exchange (one script on Redis): about 5,000 hash fields for principals of 50 edges. */
export const MAX_PRINCIPALS_PER_EXCHANGE = 50;

/** Forgotten learners whose last counts are still to be pushed; past this, the oldest are dropped. */
export const MAX_RETIRED_LEARNERS = 1_000;

/** One learner and what of its counts the shared totals already hold. */
interface Tracked {
  principal: string;
  learner: TransitionLearner;
  /**
   * Its counts at its last successful push (at first: what it was built with, from the state file, which an
   * earlier run of this process pushed already). The shared totals hold this much of its own.
   */
  base: LearnedCounts;
}

export interface LearningSyncOptions {
  pool: LearnerPool;
  shared: SharedLearning;
  logger: Logger;
  /** Default MAX_RETIRED_LEARNERS. */
  maxRetired?: number;
}

/**
 * Keeps each learner's own counts apart from the others': own counts go to the state file and, as deltas
 * (own − base), to the shared totals; the others' part is totals − base, what the totals hold beyond this learner's
 * pushed counts. Counts made after a push's snapshot are in neither base nor totals, so nothing counts twice.
 */
export class LearningSync {
  private readonly tracked = new Map<string, Tracked>();
  /** Learners the pool forgot, oldest first, kept until their last counts are pushed. */
  private retired: Tracked[] = [];
  private readonly maxRetired: number;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private shared = false;

  constructor(private readonly options: LearningSyncOptions) {
    this.maxRetired = options.maxRetired ?? MAX_RETIRED_LEARNERS;
    // A stream's next call may land on another process: its windows here still see it (peek: a principal this
    // process has no learner for has no window to feed).
    options.shared.onRelayedCall?.((call) =>
      options.pool.peek(call.principal)?.observeElsewhere(call.stream, call.tool, call.argsKey),
    );
  }

  /** An agent call observed here: told to the other processes when its stream may reach them too. */
  relay(principal: string, stream: string, tool: string, argsKey: string): void {
    if (!mayCrossProcesses(stream)) return;
    this.options.shared.relayCall?.({ principal, stream, tool, argsKey });
  }

  /** A learner the pool just built for `principal` (before it learned anything). */
  track(principal: string, learner: TransitionLearner): void {
    const before = this.tracked.get(principal);
    if (before !== undefined && before.learner !== learner) this.retire(before);
    this.tracked.set(principal, { principal, learner, base: learner.toState() });
  }

  /** Exchanges every `syncEveryMs` until `close()`. */
  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.sync(), this.options.shared.syncEveryMs);
    this.timer.unref();
  }

  /** Stops exchanging, after one last exchange (what this process counted since the last one is pushed). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.sync();
  }

  /** One exchange: push the deltas, read the totals back. One at a time; never rejects. */
  sync(): Promise<void> {
    this.running ??= this.exchange().finally(() => (this.running = undefined));
    return this.running;
  }

  private async exchange(): Promise<void> {
    const { pool } = this.options;
    for (const entry of [...this.tracked.values()])
      if (pool.peek(entry.principal) !== entry.learner) {
        this.tracked.delete(entry.principal);
        this.retire(entry);
      }
    const entries = [...this.retired, ...this.tracked.values()];
    let synced = 0;
    // A script per batch, one after another: a long one would hold up every other client of Redis, and one over
    // the command bound would be taken for failed after it ran (and its deltas pushed twice).
    for (let start = 0; start < entries.length; start += MAX_PRINCIPALS_PER_EXCHANGE) {
      const batch = entries.slice(start, start + MAX_PRINCIPALS_PER_EXCHANGE);
      if (!(await this.exchangeBatch(batch))) break;
      synced += batch.length;
    }
    if (synced > 0 && !this.shared) {
      this.shared = true;
      this.options.logger.info({ principals: synced }, 'planner: learned counts shared with the cluster');
    }
  }

  /** Pushes the batch's deltas and reads its live learners' totals back; false when the store did not take them. */
  private async exchangeBatch(batch: readonly Tracked[]): Promise<boolean> {
    const pushes: { entry: Tracked; own: LearnedCounts }[] = [];
    const deltas: PrincipalDelta[] = [];
    for (const entry of batch) {
      const own = entry.learner.toState();
      const counts = countsMinus(own, entry.base);
      if (isEmpty(counts)) continue;
      pushes.push({ entry, own });
      deltas.push({ principal: entry.principal, counts });
    }
    // Retired learners are pushed, never read back: nothing plans with them any more.
    const live = batch.filter((entry) => this.tracked.get(entry.principal) === entry);
    const result = await this.options.shared.exchange(
      deltas,
      live.map((entry) => entry.principal),
    );
    if (result.kind === 'unavailable') {
      // Kept: the deltas are the learners' counts beyond their base, pushed at the next exchange that works.
      this.options.logger.debug(
        { reason: result.reason, pending: deltas.length },
        'planner: learned counts not shared yet',
      );
      return false;
    }
    for (const { entry, own } of pushes) entry.base = own;
    this.retired = this.retired.filter((entry) => !batch.includes(entry));
    for (const entry of live) {
      const totals = result.totals.get(entry.principal) ?? { tools: {}, edges: [] };
      entry.learner.useShared(countsMinus(totals, entry.base));
    }
    return true;
  }

  private retire(entry: Tracked): void {
    if (isEmpty(countsMinus(entry.learner.toState(), entry.base))) return;
    this.retired.push(entry);
    while (this.retired.length > this.maxRetired) {
      const dropped = this.retired.shift()!;
      this.options.logger.debug(
        { principal: dropped.principal },
        'planner: counts of a forgotten principal dropped unshared (too many waiting)',
      );
    }
  }
}

/**
 * Whether a stream's calls may land on several processes: a 2026-07-28 stream, whose id (`modernStreamKey`, a JSON
 * array of principal, client and trace) every process derives alike. A stdio connection's or a 2025 session's id is
 * a random UUID that lives in one process (sessions need affinity): relaying its calls would reach no one.
 */
export function mayCrossProcesses(stream: string): boolean {
  return stream.startsWith('[');
}

const grown = (now: number | undefined, then: number | undefined) => Math.max(0, (now ?? 0) - (then ?? 0));

/**
 * `a − b` count by count, never below 0 (a smaller count means totals that lost keys, not a refund); the priors
 * are `a`'s. Rings and off flags are not counts: they stay out.
 */
export function countsMinus(a: LearnedCounts, b: LearnedCounts): LearnedCounts {
  const tools: LearnedCounts['tools'] = {};
  for (const [tool, state] of Object.entries(a.tools)) {
    const calls = grown(state.calls, b.tools[tool]?.calls);
    if (calls > 0) tools[tool] = { calls };
  }
  const before = new Map(b.edges.map((edge) => [edgeKey(edge.from, edge.to, edge.via), edge]));
  const edges: LearnedEdgeState[] = [];
  for (const edge of a.edges) {
    const then = before.get(edgeKey(edge.from, edge.to, edge.via));
    const difference: LearnedEdgeState = {
      from: edge.from,
      to: edge.to,
      ...(edge.via === undefined ? {} : { via: edge.via }),
      prior: edge.prior,
      followed: grown(edge.followed, then?.followed),
      offered: edge.offered.map((n, i) => grown(n, then?.offered[i])),
      matched: edge.matched.map((n, i) => grown(n, then?.matched[i])),
    };
    if (
      difference.followed > 0 ||
      difference.offered.some((n) => n > 0) ||
      difference.matched.some((n) => n > 0)
    )
      edges.push(difference);
  }
  return { tools, edges };
}

function isEmpty(counts: LearnedCounts): boolean {
  return counts.edges.length === 0 && Object.keys(counts.tools).length === 0;
}
