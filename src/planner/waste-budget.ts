// Keeps the speculative calls that go unused within a budget per call the agent uses.

/** How many recent decisions the account remembers, roughly: each fades the past by a factor (1 − 1/64). */
export const WASTE_BUDGET_MEMORY = 64;

export interface WasteBudgetState {
  /** The budget: unused results allowed per used one (Infinity: no budget). */
  maxWastePerHit: number;
  /** Recent calls run ahead, faded: those used, plus the probability of those still open. */
  hits: number;
  /** Recent calls run ahead, faded: those unused, plus 1 − the probability of those still open. */
  waste: number;
}

/**
 * A change to the account: `decisions` admissions asked for (each fades the past), then `hits` and `waste` added.
 * What a cluster member tells the others, so that every process keeps the cluster's account, not a third of it.
 */
export interface WasteBudgetChange {
  decisions: number;
  hits: number;
  waste: number;
}

/** What became of an admitted call: its result served, left unused, or it never ran (cancelled, dropped). */
export type BudgetOutcome = 'used' | 'unused' | 'withdrawn';

/** One admitted call's place in the account; only its first outcome counts. */
export interface BudgetTicket {
  settle(outcome: BudgetOutcome): void;
}

/**
 * An account of the calls run ahead. A call whose outcome is still open counts as its probability p of
 * a hit and 1 − p of a waste; once its result is served or left unused, the account takes the real
 * outcome instead, so probabilities that run low or high correct themselves. A call is admitted when,
 * with it, waste stays within `maxWastePerHit` × hits. Likely calls always get in and leave room that
 * lets unlikely ones in now and then; alone, unlikely calls never run. So the planner prefetches as
 * widely as the budget allows instead of cutting at one fixed probability.
 *
 * In a cluster each process plans a part of an agent's calls and runs a part of its prefetches: an account of its
 * own would start empty on each process and see a third of the outcomes, refusing the unlikely calls one process
 * would run. So every change is told (`onChange`) and the others' changes are taken in (`absorb`).
 */
export class WasteBudget {
  private hits = 0;
  private waste = 0;
  private readonly fade = 1 - 1 / WASTE_BUDGET_MEMORY;

  constructor(
    private readonly maxWastePerHit: number,
    private readonly onChange?: (change: WasteBudgetChange) => void,
  ) {
    if (!(maxWastePerHit >= 0))
      throw new RangeError(`maxWastePerHit must be a number >= 0, got ${maxWastePerHit}`);
  }

  /** A ticket when a call with this probability may run now (it is counted), else undefined. */
  admit(probability: number): BudgetTicket | undefined {
    const p = Math.min(1, Math.max(0, probability));
    // Every decision fades the past, refused ones too: a run of waste is not held against the
    // planner for ever once it has stopped admitting.
    this.fadeOver(1);
    // The small tolerance lets a call of exactly 1 / (1 + budget) in, whatever the rounding.
    if (
      this.maxWastePerHit !== Infinity &&
      this.waste + (1 - p) > this.maxWastePerHit * (this.hits + p) + 1e-9
    ) {
      this.onChange?.({ decisions: 1, hits: 0, waste: 0 });
      return undefined;
    }
    this.hits += p;
    this.waste += 1 - p;
    this.onChange?.({ decisions: 1, hits: p, waste: 1 - p });
    let open = true;
    return {
      settle: (outcome) => {
        if (!open) return;
        open = false;
        // The call's expected share comes out; the real outcome, if any, goes in.
        const hits = outcome === 'used' ? 1 - p : -p;
        const waste = outcome === 'unused' ? p : -(1 - p);
        this.add(hits, waste);
        this.onChange?.({ decisions: 0, hits, waste });
      },
    };
  }

  /** Another process's changes: its decisions fade this account as this process's own do. */
  absorb(change: WasteBudgetChange): void {
    this.fadeOver(change.decisions);
    this.add(change.hits, change.waste);
  }

  private fadeOver(decisions: number): void {
    const faded = this.fade ** decisions;
    this.hits *= faded;
    this.waste *= faded;
  }

  get state(): WasteBudgetState {
    return { maxWastePerHit: this.maxWastePerHit, hits: this.hits, waste: this.waste };
  }

  private add(hits: number, waste: number): void {
    // Fading since admission makes the share taken out slightly larger than what is left of it.
    this.hits = Math.max(0, this.hits + hits);
    this.waste = Math.max(0, this.waste + waste);
  }
}
