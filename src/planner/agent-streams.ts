// The open agent streams' principals, and the glue to each principal's learner: what it observes, counts and has learned.
import type { PrincipalCounters } from './learned-state.js';
import type { LearnerPool } from './learner-pool.js';
import { type CallObservation, TransitionLearner, rankEdgesByDivergence } from './learning.js';
import type { PlannerSnapshot } from './planner-types.js';

/** An agent call as its principal's learner saw it: what was planned after it goes to the same learner. */
export interface Observed {
  learner: TransitionLearner;
  call: CallObservation;
}

/** What the snapshot says of learning: every principal's counts added up, or one principal's own. */
export type LearnedPart = Pick<PlannerSnapshot, 'principals' | 'switchedOff' | 'edges' | 'principalCounters'>;

/** Each open stream's principal, and the principals' learners (none until learning starts). */
export class AgentStreams {
  /** Each open stream's principal. */
  private readonly principals = new Map<string, string>();

  constructor(private pool: LearnerPool | undefined) {}

  get learners(): LearnerPool | undefined {
    return this.pool;
  }

  /** Starts learning from what the agents do, per principal. */
  useLearners(learners: LearnerPool): void {
    this.pool = learners;
  }

  open(stream: string, principal: string): void {
    this.principals.set(stream, principal);
  }

  isOpen(stream: string): boolean {
    return this.principals.has(stream);
  }

  /** Forgets the stream's principal (its learner is not told). */
  forget(stream: string): void {
    this.principals.delete(stream);
  }

  /** The stream has ended: its principal's learner closes its windows, and its principal is forgotten. */
  end(stream: string): void {
    this.pool?.peek(this.principalOf(stream))?.endSession(stream);
    this.principals.delete(stream);
  }

  /** The principal a stream was opened for; a stream the planner never opened is its own principal. */
  principalOf(stream: string): string {
    return this.principals.get(stream) ?? stream;
  }

  /** The agent's call, told to its principal's learner (the one that plans what follows it). */
  observe(stream: string, tool: string, argsKey: string): Observed | undefined {
    const learner = this.pool?.of(this.principalOf(stream));
    return learner && { learner, call: learner.observeCall(stream, tool, argsKey) };
  }

  /** The stream's principal's learner, when it has one already. */
  learnerOf(stream: string): TransitionLearner | undefined {
    return this.pool?.peek(this.principalOf(stream));
  }

  /** Counts for the principal's learner, when it is in memory. */
  count(principal: string, name: keyof PrincipalCounters, amount: number): void {
    this.pool?.count(principal, name, amount);
  }

  /** What was learned: every principal's counts added up, or one principal's own. */
  learned(principal: string | undefined): LearnedPart {
    const learners = this.pool;
    if (learners === undefined)
      return principal === undefined
        ? { principals: 0, switchedOff: [], edges: [] }
        : { switchedOff: [], edges: [] };
    if (principal === undefined)
      return {
        principals: learners.principals().length,
        switchedOff: learners.switchedOff(),
        edges: rankEdgesByDivergence(learners.combined().edges()),
      };
    const counts = learners.countsOf(principal);
    if (counts === undefined) return { switchedOff: [], edges: [] };
    const own = new TransitionLearner({}, counts);
    return {
      ...(counts.counters === undefined ? {} : { principalCounters: counts.counters }),
      switchedOff: own.switchedOff().map((off) => ({ principal, ...off })),
      edges: rankEdgesByDivergence(own.edges()),
    };
  }
}
