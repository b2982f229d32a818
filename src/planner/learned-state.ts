// The planner state file's format: what is learned per principal, reading older versions, and merging saves.
import * as z from 'zod';
import { COUNTER_NAMES, type PlannerCounters, zeroCounters } from './counters.js';
import { MAX_ARGUMENT_SETS_PER_LINK } from './projection.js';

/** The principal of the local user: a version 1 file (one learner for everyone) becomes this principal's. */
export const LOCAL_PRINCIPAL_STATE = 'local';

/** Principals kept in memory and in the file; the least recently seen is forgotten first. */
export const DEFAULT_MAX_PRINCIPALS = 1_000;

/** One tool's learned facts: how often the agent called it, and its auto-off ring (as target of follow-ups). */
export interface LearnedToolState {
  /** Agent calls of the tool (not speculative ones). */
  calls: number;
  /** The last outcomes of its speculative sets, oldest first: true = the agent used it. Absent = none yet. */
  ring?: boolean[];
  /** True while speculation for the tool is switched off; absent = on. */
  off?: boolean;
}

/** One follow-up edge `from → to`: how often the agent really went there, and how the planned sets fared. */
export interface LearnedEdgeState {
  from: string;
  to: string;
  /** Set for a link the planner adds itself (`listing`), learned apart from the value model's links to `to`. */
  via?: string;
  /** The follow-up graph's probability for the link when last planned; 0 for a link the graph lacks. */
  prior: number;
  /** Windows of `from` in which the agent called `to` (at most one per call of `from`). */
  followed: number;
  /** Planned sets by position (0, 1, 2) whose window closed. */
  offered: number[];
  /** Of those, the sets the agent called with the same arguments within the window. */
  matched: number[];
}

/** What one learner knows: its tools and its edges. */
export interface LearnedCounts {
  tools: Record<string, LearnedToolState>;
  edges: LearnedEdgeState[];
}

/**
 * The planner counters kept per principal: those counted where the principal is known. What the result cache
 * counts (wasted, expired, invalidated) and the calls never started (dropped) are kept for the process only.
 */
export const PRINCIPAL_COUNTER_NAMES = ['dispatched', 'hits', 'joins', 'failed', 'latencySavedMs'] as const;
export type PrincipalCounters = Record<(typeof PRINCIPAL_COUNTER_NAMES)[number], number>;

export function zeroPrincipalCounters(): PrincipalCounters {
  return { dispatched: 0, hits: 0, joins: 0, failed: 0, latencySavedMs: 0 };
}

/** What one principal taught the planner, and when it was last seen. */
export interface PrincipalLearnedState extends LearnedCounts {
  /** ISO 8601 time of the principal's latest agent call (to forget the least recently seen first). */
  seenAt: string;
  /** What the planner did for this principal (absent in a file from before they were kept: read as 0). */
  counters?: PrincipalCounters;
  /**
   * Which in-memory learner made these counts; never written. A learner built afresh for a principal that was
   * forgotten counts from zero, so a save must not subtract what the forgotten one had counted.
   */
  instance?: number;
}

/**
 * The file's content, version 2: counts per principal (a principal's calls never move another's estimates).
 * Every count is additive across processes; rings, off flags and priors are not. Principals are subjects and
 * fingerprints (`sub:<issuer host>:<sub>`, `token:<fingerprint>`, `address:<ip>`, `local`), never tokens.
 */
export interface LearnedState {
  version: 2;
  /** ISO 8601 time of the last save. */
  savedAt: string;
  /** The planner's counters, for the whole process (they are not kept per principal). */
  counters: PlannerCounters;
  principals: Record<string, PrincipalLearnedState>;
}

const count = z.int().nonnegative();
// Counters a later version adds are missing from older files: they read as 0.
const amount = z.number().nonnegative().default(0);
const counterShape = Object.fromEntries(COUNTER_NAMES.map((name) => [name, amount])) as Record<
  (typeof COUNTER_NAMES)[number],
  typeof amount
>;

const countsShape = {
  tools: z.record(
    z.string(),
    z.object({ calls: count, ring: z.array(z.boolean()).optional(), off: z.boolean().optional() }),
  ),
  edges: z.array(
    z.object({
      from: z.string(),
      to: z.string(),
      via: z.string().optional(),
      prior: z.number().min(0).max(1),
      followed: count,
      offered: z.array(count),
      matched: z.array(count),
    }),
  ),
};

const StateV1Schema = z.object({
  version: z.literal(1),
  savedAt: z.string(),
  counters: z.object(counterShape),
  ...countsShape,
});

const LearnedStateSchema = z.object({
  version: z.literal(2),
  savedAt: z.string(),
  counters: z.object(counterShape),
  principals: z.record(
    z.string(),
    z.object({
      seenAt: z.string(),
      counters: z
        .object({
          dispatched: amount,
          hits: amount,
          joins: amount,
          failed: amount,
          latencySavedMs: amount,
        })
        .optional(),
      ...countsShape,
    }),
  ),
}) satisfies z.ZodType<LearnedState, unknown>;

/** A state with nothing learned yet. */
export function emptyLearnedState(savedAt = new Date(0).toISOString()): LearnedState {
  return { version: 2, savedAt, counters: zeroCounters(), principals: {} };
}

/** The state in `text`, or why it is not one (bad JSON, an unknown version, a bad field). Version 1 is migrated. */
export function parseLearnedState(text: string): { state: LearnedState } | { problem: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { problem: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const version = (data as { version?: unknown } | null)?.version;
  if (version === 1) {
    // Version 1 had one learner for the whole process, which only the local user (stdio) could have taught.
    const result = StateV1Schema.safeParse(data);
    if (!result.success) return { problem: problemOf(result.error) };
    const { savedAt, counters, tools, edges } = result.data;
    return {
      state: {
        version: 2,
        savedAt,
        counters,
        principals:
          Object.keys(tools).length === 0 && edges.length === 0
            ? {}
            : { [LOCAL_PRINCIPAL_STATE]: { seenAt: savedAt, tools, edges } },
      },
    };
  }
  if (version !== 2)
    return { problem: `version ${JSON.stringify(version)} is not 1 or 2, the ones this Foresight reads` };
  const result = LearnedStateSchema.safeParse(data);
  return result.success ? { state: result.data } : { problem: problemOf(result.error) };
}

function problemOf(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue?.path.map(String).join('.') || 'the top level';
  return `${where}: ${issue?.message ?? 'invalid'}`;
}

export function addCounters(a: PlannerCounters, b: PlannerCounters): PlannerCounters {
  const sum = zeroCounters();
  for (const name of COUNTER_NAMES) sum[name] = a[name] + b[name];
  return sum;
}

/** `a − b` per counter, never below 0 (a count cannot shrink; a smaller one means a reset, not a refund). */
export function subtractCounters(a: PlannerCounters, b: PlannerCounters): PlannerCounters {
  const difference = zeroCounters();
  for (const name of COUNTER_NAMES) difference[name] = Math.max(0, a[name] - b[name]);
  return difference;
}

const grown = (now: number, then: number | undefined) => Math.max(0, now - (then ?? 0));

function addedArrays(disk: readonly number[], own: readonly number[], base: readonly number[]): number[] {
  const length = Math.max(disk.length, own.length);
  return Array.from({ length }, (_, i) => (disk[i] ?? 0) + grown(own[i] ?? 0, base[i]));
}

/** One string per edge (from, to, via): tool names never hold NUL, so the parts cannot run together. */
/** An edge nothing has been counted for yet. */
export function emptyEdge(from: string, to: string, via?: string): LearnedEdgeState {
  const zeros = () => new Array<number>(MAX_ARGUMENT_SETS_PER_LINK).fill(0);
  return {
    from,
    to,
    ...(via === undefined ? {} : { via }),
    prior: 0,
    followed: 0,
    offered: zeros(),
    matched: zeros(),
  };
}

export function edgeKey(from: string, to: string, via?: string): string {
  return via === undefined ? `${from}\u0000${to}` : `${from}\u0000${to}\u0000${via}`;
}

const keyOf = (edge: { from: string; to: string; via?: string }) => edgeKey(edge.from, edge.to, edge.via);

function sameTool(a: LearnedToolState | undefined, b: LearnedToolState | undefined): boolean {
  return (
    JSON.stringify([a?.ring ?? [], a?.off ?? false]) === JSON.stringify([b?.ring ?? [], b?.off ?? false])
  );
}

const EMPTY_COUNTS: LearnedCounts & { counters?: PrincipalCounters } = { tools: {}, edges: [] };

/**
 * One learner's counts to write when `disk` is on disk, this process holds `own`, and held `base` at its last
 * save: every count is the disk's plus what this process counted since (`own − base`); a ring, off flag or
 * prior this process changed since `base` replaces the disk's, one it did not change keeps the disk's
 * (another process may have moved it).
 */
export function mergeLearnedCounts(
  disk: LearnedCounts,
  own: LearnedCounts,
  base: LearnedCounts,
): LearnedCounts {
  const tools: Record<string, LearnedToolState> = {};
  for (const name of new Set([...Object.keys(disk.tools), ...Object.keys(own.tools)])) {
    const [onDisk, mine, before] = [disk.tools[name], own.tools[name], base.tools[name]];
    const keepMine = mine !== undefined && (onDisk === undefined || !sameTool(mine, before));
    const flags = keepMine ? mine : onDisk;
    tools[name] = {
      calls: (onDisk?.calls ?? 0) + grown(mine?.calls ?? 0, before?.calls),
      ...(flags?.ring === undefined ? {} : { ring: [...flags.ring] }),
      ...(flags?.off === true ? { off: true } : {}),
    };
  }
  const baseEdges = new Map(base.edges.map((edge) => [keyOf(edge), edge]));
  const ownEdges = new Map(own.edges.map((edge) => [keyOf(edge), edge]));
  const edges: LearnedEdgeState[] = [];
  for (const onDisk of disk.edges) {
    const mine = ownEdges.get(keyOf(onDisk));
    ownEdges.delete(keyOf(onDisk));
    if (mine === undefined) {
      edges.push({ ...onDisk, offered: [...onDisk.offered], matched: [...onDisk.matched] });
      continue;
    }
    const before = baseEdges.get(keyOf(onDisk));
    edges.push({
      from: onDisk.from,
      to: onDisk.to,
      ...(onDisk.via === undefined ? {} : { via: onDisk.via }),
      prior: before === undefined || mine.prior !== before.prior ? mine.prior : onDisk.prior,
      followed: onDisk.followed + grown(mine.followed, before?.followed),
      offered: addedArrays(onDisk.offered, mine.offered, before?.offered ?? []),
      matched: addedArrays(onDisk.matched, mine.matched, before?.matched ?? []),
    });
  }
  // Edges only this process knows: what it counted since its base (the rest was on disk once and was dropped there).
  const none: LearnedEdgeState = { from: '', to: '', prior: 0, followed: 0, offered: [], matched: [] };
  for (const mine of ownEdges.values()) {
    const before = baseEdges.get(keyOf(mine)) ?? none;
    edges.push({
      from: mine.from,
      to: mine.to,
      ...(mine.via === undefined ? {} : { via: mine.via }),
      prior: mine.prior,
      followed: grown(mine.followed, before.followed),
      offered: addedArrays([], mine.offered, before.offered),
      matched: addedArrays([], mine.matched, before.matched),
    });
  }
  return { tools, edges };
}

/**
 * What to write when `disk` is on disk, this process holds `own`, and held `base` at its last save: each
 * principal's counts merged as `mergeLearnedCounts` does, the counters added likewise, and at most
 * `maxPrincipals` principals kept (the most recently seen).
 */
export function mergeLearnedState(
  disk: LearnedState,
  own: LearnedState,
  base: LearnedState,
  savedAt: string,
  maxPrincipals = DEFAULT_MAX_PRINCIPALS,
): LearnedState {
  const merged: [string, PrincipalLearnedState][] = [];
  for (const principal of new Set([...Object.keys(disk.principals), ...Object.keys(own.principals)])) {
    const [onDisk, mine] = [disk.principals[principal], own.principals[principal]];
    const before = base.principals[principal];
    // A learner built afresh since the base counts from zero: nothing it holds was saved before.
    const since = before !== undefined && before.instance === mine?.instance ? before : EMPTY_COUNTS;
    const counts = mergeLearnedCounts(onDisk ?? EMPTY_COUNTS, mine ?? EMPTY_COUNTS, since);
    const counters = zeroPrincipalCounters();
    for (const name of PRINCIPAL_COUNTER_NAMES)
      counters[name] =
        (onDisk?.counters?.[name] ?? 0) + grown(mine?.counters?.[name] ?? 0, since.counters?.[name]);
    merged.push([principal, { seenAt: latest(onDisk?.seenAt, mine?.seenAt), counters, ...counts }]);
  }
  // ISO 8601 times in UTC sort as strings; ties keep a stable order by name.
  merged.sort(([a, x], [b, y]) => (y.seenAt < x.seenAt ? -1 : y.seenAt > x.seenAt ? 1 : a.localeCompare(b)));
  const counters = addCounters(disk.counters, subtractCounters(own.counters, base.counters));
  return {
    version: 2,
    savedAt,
    counters,
    principals: Object.fromEntries(merged.slice(0, maxPrincipals)),
  };
}

function latest(a: string | undefined, b: string | undefined): string {
  if (a === undefined) return b ?? new Date(0).toISOString();
  if (b === undefined) return a;
  return a > b ? a : b;
}
