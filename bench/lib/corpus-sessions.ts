// Agent sessions for the planner replay: a Markov chain over our tools fitted to the agent corpus's lag-1
// follow-up counts (bench/data/agent-corpus), sampled with a seeded PRNG so every run replays the same sessions.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_DIR } from './inputs.js';

/**
 * What the scripted agent does at one step. Mostly one published tool each; the corpus's two pipeline verbs
 * stay apart because they call get_pipeline with different arguments (a branch, or a merge request key).
 */
export const CHAIN_STATES = [
  'glob',
  'grep',
  'read_file',
  'list_directory',
  'get_merge_requests',
  'get_merge_request',
  'get_merge_request_discussions',
  'get_merge_request_diffs',
  'create_merge_request_comment',
  'get_issues',
  'get_issue',
  'get_issue_comments',
  'create_issue',
  'update_issue',
  'add_issue_comment',
  'get_branch_pipeline',
  'get_merge_request_pipeline',
  'get_job_logs',
] as const;
export type ChainState = (typeof CHAIN_STATES)[number];

export const WORKSPACE_PREFIX = 'workspace';
export const GITLAB_PREFIX = 'gl';

/** The published tool each state calls. */
export const STATE_TOOLS: Readonly<Record<ChainState, string>> = {
  glob: `${WORKSPACE_PREFIX}__glob`,
  grep: `${WORKSPACE_PREFIX}__grep`,
  read_file: `${WORKSPACE_PREFIX}__read_file`,
  list_directory: `${WORKSPACE_PREFIX}__list_directory`,
  get_merge_requests: `${GITLAB_PREFIX}__get_merge_requests`,
  get_merge_request: `${GITLAB_PREFIX}__get_merge_request`,
  get_merge_request_discussions: `${GITLAB_PREFIX}__get_merge_request_discussions`,
  get_merge_request_diffs: `${GITLAB_PREFIX}__get_merge_request_diffs`,
  create_merge_request_comment: `${GITLAB_PREFIX}__create_merge_request_comment`,
  get_issues: `${GITLAB_PREFIX}__get_issues`,
  get_issue: `${GITLAB_PREFIX}__get_issue`,
  get_issue_comments: `${GITLAB_PREFIX}__get_issue_comments`,
  create_issue: `${GITLAB_PREFIX}__create_issue`,
  update_issue: `${GITLAB_PREFIX}__update_issue`,
  add_issue_comment: `${GITLAB_PREFIX}__add_issue_comment`,
  get_branch_pipeline: `${GITLAB_PREFIX}__get_pipeline`,
  get_merge_request_pipeline: `${GITLAB_PREFIX}__get_pipeline`,
  get_job_logs: `${GITLAB_PREFIX}__get_job_logs`,
};

/** States that change upstream data: the planner must never run them, and they make cached reads stale. */
export const MUTATING_STATES: ReadonlySet<ChainState> = new Set([
  'create_merge_request_comment',
  'create_issue',
  'update_issue',
  'add_issue_comment',
]);

/** Built-in corpus tools we serve. LS is listed for corpora that have it (this one does not). */
const BUILTIN_STATES: Readonly<Record<string, ChainState>> = {
  Glob: 'glob',
  Grep: 'grep',
  Read: 'read_file',
  LS: 'list_directory',
};

/**
 * MCP verbs (`mcp__p<hash>__<verb>`, every server hash aggregated) and the state they map to. Left out, with
 * no tool of ours to replay them: create_merge_request, link_issues, get_issue_relations, get_epics,
 * get_project_info, meetings, messengers and browsers.
 */
const VERB_STATES: Readonly<Record<string, ChainState>> = {
  get_merge_requests: 'get_merge_requests',
  get_merge_request: 'get_merge_request',
  get_merge_request_discussions: 'get_merge_request_discussions',
  get_merge_request_diffs: 'get_merge_request_diffs',
  create_merge_request_comment: 'create_merge_request_comment',
  get_issues: 'get_issues',
  get_issue: 'get_issue',
  get_issue_comments: 'get_issue_comments',
  create_issue: 'create_issue',
  update_issue: 'update_issue',
  add_issue_comment: 'add_issue_comment',
  create_issue_comment: 'add_issue_comment',
  get_pipeline: 'get_branch_pipeline',
  get_branch_pipeline: 'get_branch_pipeline',
  get_merge_request_pipeline: 'get_merge_request_pipeline',
  get_job_logs: 'get_job_logs',
};

/** The state a corpus tool name maps to, or undefined for tools we do not replay. */
export function stateOf(corpusTool: string): ChainState | undefined {
  const builtin = BUILTIN_STATES[corpusTool];
  if (builtin !== undefined) return builtin;
  const verb = /^mcp__p[0-9a-f]+__(.+)$/.exec(corpusTool)?.[1];
  return verb === undefined ? undefined : VERB_STATES[verb];
}

/** The fitted chain: renormalised lag-1 transitions between mapped states, and each state's corpus volume. */
export interface CorpusChain {
  /** Calls per state (tool_volume.csv, summed over the corpus names that map to it). */
  calls: Partial<Record<ChainState, number>>;
  /** P(next | prev) over mapped next states, summing to 1 for every state with a mapped follower. */
  next: Partial<Record<ChainState, [ChainState, number][]>>;
  /**
   * Share of a state's calls followed (at lag 1) by a mapped state: count / calls(prev), summed, before
   * renormalising. The rest went to tools we do not replay (Bash, Edit, ToolSearch...) or ended the session.
   */
  keptShare: Partial<Record<ChainState, number>>;
}

function readCsv(file: string): string[][] {
  const lines = readFileSync(join(CORPUS_DIR, file), 'utf8').trim().split('\n');
  return lines.slice(1).map((line) => line.split(','));
}

/**
 * Reads tool_volume.csv and the lag-1 rows of followup_edges.csv. An edge whose prev tool has no volume row
 * (the corpus's K=5 filter removed it there) has no denominator and is skipped, as SOURCE.md warns.
 */
export function loadCorpusChain(): CorpusChain {
  const calls: Partial<Record<ChainState, number>> = {};
  const known = new Set<string>();
  for (const [tool = '', count = '0'] of readCsv('tool_volume.csv')) {
    known.add(tool);
    const state = stateOf(tool);
    if (state !== undefined) calls[state] = (calls[state] ?? 0) + Number(count);
  }
  const counts = new Map<ChainState, Map<ChainState, number>>();
  for (const [prevTool = '', nextTool = '', lag = '', count = '0'] of readCsv('followup_edges.csv')) {
    if (lag !== '1' || !known.has(prevTool)) continue;
    const prev = stateOf(prevTool);
    const next = stateOf(nextTool);
    if (prev === undefined || next === undefined) continue;
    const row = counts.get(prev) ?? new Map<ChainState, number>();
    row.set(next, (row.get(next) ?? 0) + Number(count));
    counts.set(prev, row);
  }
  const next: CorpusChain['next'] = {};
  const keptShare: CorpusChain['keptShare'] = {};
  for (const [prev, row] of counts) {
    const total = [...row.values()].reduce((sum, n) => sum + n, 0);
    next[prev] = [...row.entries()].sort((a, b) => b[1] - a[1]).map(([state, n]) => [state, n / total]);
    keptShare[prev] = total / (calls[prev] ?? total);
  }
  return { calls, next, keptShare };
}

/** mulberry32: small, fast, and the same sequence on every platform for a given 32-bit seed. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed mixed from several numbers (FNV-1a over their decimal text). */
export function mixSeed(...parts: (number | string)[]): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('|')) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Picks an entry of `weighted` (weights need not sum to 1) with the uniform draw `u`. */
export function pickWeighted<T>(weighted: readonly (readonly [T, number])[], u: number): T {
  const total = weighted.reduce((sum, [, w]) => sum + w, 0);
  let left = u * total;
  for (const [value, weight] of weighted) {
    left -= weight;
    if (left < 0) return value;
  }
  const last = weighted[weighted.length - 1];
  if (last === undefined) throw new Error('pickWeighted: nothing to pick from');
  return last[0];
}

export type SessionKind = 'code' | 'review';

export interface ScriptStep {
  state: ChainState;
  /** The published tool. */
  tool: string;
  /** Think time before this call, in unscaled ms (0 before the first). */
  thinkMs: number;
  /**
   * Uniform draws in [0, 1) the agent spends on this step's arguments: [0] from the listing or not, [1] the
   * position in it (or the random fallback), [2] everything else (a glob pattern, a branch).
   */
  draws: [number, number, number];
}

export interface SessionScript {
  index: number;
  kind: SessionKind;
  steps: ScriptStep[];
}

/** The stated shape of the generated sessions. */
export interface SessionPlan {
  sessions: number;
  seed: number;
  /** Calls per session, drawn uniformly from this inclusive range. */
  length: readonly [number, number];
  /** Think time before each call but the first, drawn uniformly (unscaled ms). */
  thinkMs: readonly [number, number];
}

export const DEFAULT_SESSION_PLAN: Omit<SessionPlan, 'sessions' | 'seed'> = {
  length: [16, 32],
  thinkMs: [500, 3000],
};

/**
 * Code sessions start with a search (glob or grep, by corpus volume); review sessions with a merge request
 * list, an issue list and a branch pipeline in turn (by volume the pipeline would start half of them).
 */
const START_STATES: Readonly<Record<SessionKind, readonly ChainState[]>> = {
  code: ['glob', 'grep'],
  review: ['get_merge_requests', 'get_issues', 'get_branch_pipeline'],
};

/**
 * Half the sessions are review sessions (index 1, 2, 5, 6, 9, 10...), so the tracker chains get as many
 * sessions as the file chains; both kinds meet both mode orders (even indexes run off first).
 */
export function sessionKind(index: number): SessionKind {
  return index % 4 === 1 || index % 4 === 2 ? 'review' : 'code';
}

function startWeights(chain: CorpusChain, kind: SessionKind): [ChainState, number][] {
  return START_STATES[kind].map((state) => [state, chain.calls[state] ?? 0]);
}

/** The first state: a code session's by volume, a review session's in turn by its ordinal among review sessions. */
function firstState(chain: CorpusChain, kind: SessionKind, index: number, u: number): ChainState {
  if (kind === 'code') return pickWeighted(startWeights(chain, kind), u);
  const ordinal = Array.from({ length: index }, (_, i) => sessionKind(i)).filter(
    (k) => k === 'review',
  ).length;
  const starts = START_STATES.review;
  return starts[ordinal % starts.length] ?? 'get_merge_requests';
}

/**
 * Session `index`: its kind, a start state by volume, then lag-1 transitions of the chain. A state with no
 * mapped follower restarts from the kind's start states (the corpus agent went off to tools we do not replay).
 */
export function generateSession(chain: CorpusChain, plan: SessionPlan, index: number): SessionScript {
  const random = createRandom(mixSeed(plan.seed, 'session', index));
  const kind = sessionKind(index);
  const between = ([low, high]: readonly [number, number]) => low + random() * (high - low);
  const length = Math.floor(between([plan.length[0], plan.length[1] + 1]));
  const steps: ScriptStep[] = [];
  let state = firstState(chain, kind, index, random());
  for (let i = 0; i < length; i++) {
    if (i > 0) {
      const followers = chain.next[state];
      state = pickWeighted(followers?.length ? followers : startWeights(chain, kind), random());
    }
    steps.push({
      state,
      tool: STATE_TOOLS[state],
      thinkMs: i === 0 ? 0 : Math.round(between(plan.thinkMs)),
      draws: [random(), random(), random()],
    });
  }
  return { index, kind, steps };
}

export function generateSessions(chain: CorpusChain, plan: SessionPlan): SessionScript[] {
  return Array.from({ length: plan.sessions }, (_, index) => generateSession(chain, plan, index));
}

export interface SessionStatistics {
  sessions: number;
  byKind: Record<SessionKind, number>;
  calls: number;
  meanLength: number;
  minLength: number;
  maxLength: number;
  /** Calls per published tool, most first, with their share of all calls (percent, one decimal). */
  toolMix: { tool: string; calls: number; percent: number }[];
  /** Calls of mutating tools. */
  mutatingCalls: number;
  /** Mean think time between calls, unscaled ms. */
  meanThinkMs: number;
}

export function sessionStatistics(scripts: readonly SessionScript[]): SessionStatistics {
  const lengths = scripts.map((s) => s.steps.length);
  const calls = lengths.reduce((sum, n) => sum + n, 0);
  const mix = new Map<string, number>();
  let mutatingCalls = 0;
  let thinkTotal = 0;
  let thinks = 0;
  for (const script of scripts) {
    for (const [i, step] of script.steps.entries()) {
      mix.set(step.tool, (mix.get(step.tool) ?? 0) + 1);
      if (MUTATING_STATES.has(step.state)) mutatingCalls += 1;
      if (i > 0) {
        thinkTotal += step.thinkMs;
        thinks += 1;
      }
    }
  }
  return {
    sessions: scripts.length,
    byKind: {
      code: scripts.filter((s) => s.kind === 'code').length,
      review: scripts.filter((s) => s.kind === 'review').length,
    },
    calls,
    meanLength: calls / Math.max(1, scripts.length),
    minLength: Math.min(...lengths),
    maxLength: Math.max(...lengths),
    toolMix: [...mix.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([tool, n]) => ({ tool, calls: n, percent: Math.round((n / calls) * 1000) / 10 })),
    mutatingCalls,
    meanThinkMs: thinkTotal / Math.max(1, thinks),
  };
}
