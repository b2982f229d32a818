// The scripted agent of the planner replay: walks one generated session, choosing each call's arguments
// from the latest listing (the stated distributions), thinking between calls, timing each call as the
// client sees it, and checking every read's answer against a fresh read of the same upstream.
import { createHash } from 'node:crypto';
import { type Client, TRACEPARENT_META_KEY } from '@modelcontextprotocol/client';
import { type ChainState, MUTATING_STATES, type ScriptStep, type SessionScript } from './corpus-sessions.js';
import { REPLAY_JOB_IDS } from './planner-replay-gitlab.js';
import { type PrefetchSource, canonicalJson, prefetchOf, resultData } from './planner-replay-compare.js';
import { sleep } from './planner-replay-plugins.js';

/** How predictable the agent's choice among listed items is. */
export interface ChoiceRule {
  name: string;
  /** Chance that a call's item comes from the latest listing rather than anywhere. */
  fromListing: number;
  /**
   * Position among the listed items not yet read with this tool: geometric, P(i) ∝ ratio^i (ratio 0.25:
   * the first unread item three times in four), or uniform.
   */
  position: { kind: 'geometric'; ratio: number } | { kind: 'uniform' };
  /**
   * When a read does not come from a listing: chance that it opens a file the last file read imports
   * (position by the same rule over those not yet read), rather than any file.
   */
  followsImports: number;
}

/**
 * Works through what a search lists in order: always the first item not yet read, from the latest
 * listing while it has one, else the first unread file the last one imports. Which tool it calls next
 * still follows the corpus, so even this agent reads a listed file after a grep less than half the time.
 */
export const IN_ORDER: ChoiceRule = {
  name: 'in order',
  fromListing: 1,
  position: { kind: 'geometric', ratio: 0 },
  followsImports: 1,
};
/** Reads what a search lists mostly in order: the first item not yet read with P = 0.75. */
export const PREDICTABLE: ChoiceRule = {
  name: 'predictable',
  fromListing: 0.9,
  position: { kind: 'geometric', ratio: 0.25 },
  followsImports: 0.6,
};
/** Still mostly from the listing, but any of its first items: the first item not yet read with P = 0.5. */
export const MODERATE: ChoiceRule = {
  name: 'moderate',
  fromListing: 0.9,
  position: { kind: 'geometric', ratio: 0.5 },
  followsImports: 0.6,
};
export const LESS_PREDICTABLE: ChoiceRule = {
  name: 'less predictable',
  fromListing: 0.6,
  position: { kind: 'uniform' },
  followsImports: 0.3,
};

/** What the agent can reach without a listing: the workspace files and the project's item counts. */
export interface AgentWorld {
  files: readonly string[];
  /** The files each source file imports, in order. */
  importsOf: Readonly<Record<string, readonly string[]>>;
  globPatterns: readonly string[];
  grepTargets: readonly { pattern: string; glob?: string }[];
  mergeRequests: number;
  issues: number;
}

export interface CallRecord {
  step: number;
  state: ChainState;
  tool: string;
  /** Canonical JSON of the arguments. */
  args: string;
  /** Client-measured: from callTool to its result. */
  waitMs: number;
  isError: boolean;
  /** How the planner served it, from `_meta`; undefined when it went upstream. */
  prefetch?: PrefetchSource;
  /** Reads only: whether the answer's data differed from a fresh upstream read made right after it. */
  stale?: boolean;
  /** How the agent chose the item: "listing N" (position among the unread), "focus" or "random"; none for other calls. */
  choice?: string;
}

type ItemKind = 'merge_request' | 'issue';

const ITEM_KIND: Partial<Record<ChainState, ItemKind>> = {
  get_merge_request: 'merge_request',
  get_merge_request_discussions: 'merge_request',
  get_merge_request_diffs: 'merge_request',
  get_merge_request_pipeline: 'merge_request',
  create_merge_request_comment: 'merge_request',
  get_issue: 'issue',
  get_issue_comments: 'issue',
  update_issue: 'issue',
  add_issue_comment: 'issue',
  create_issue: 'issue',
};

/** Arguments of the list calls, one per session step drawn from them. */
const MERGE_REQUEST_LISTS: readonly Record<string, unknown>[] = [{}, {}, { state: 'all' }, { limit: 10 }];
const ISSUE_LISTS: readonly Record<string, unknown>[] = [
  {},
  {},
  { state: 'all' },
  { search: 'crash' },
  { sort: 'updated' },
  { offset: 20 },
];

/** The CPU-heavy workspace reads (a walk of the whole tree) whose reference read is skipped when not needed. */
const SEARCHES: ReadonlySet<ChainState> = new Set(['glob', 'grep']);

const at = <T>(items: readonly T[], u: number): T | undefined => items[Math.floor(u * items.length)];

/** Index into `n` items: P(i) ∝ ratio^i (normalised over the n), or uniform. */
function position(n: number, u: number, rule: ChoiceRule['position']): number {
  if (rule.kind === 'uniform') return Math.min(n - 1, Math.floor(u * n));
  const weights = Array.from({ length: n }, (_, i) => rule.ratio ** i);
  let left = u * weights.reduce((sum, weight) => sum + weight, 0);
  for (let i = 0; i < n; i++) {
    left -= weights[i] ?? 0;
    if (left < 0) return i;
  }
  return n - 1;
}

/** The agent's memory: latest listings, what it has read, the item in focus. */
class AgentMemory {
  files: string[] = [];
  mergeRequests: { key: string; branch?: string }[] = [];
  issues: string[] = [];
  jobs: string[] = [];
  /** Items read per tool, so a listing's next pick is something new. */
  private readonly read = new Map<string, Set<string>>();
  /** The item the previous call was about, if it was about one. */
  focus: { kind: ItemKind; key: string; state: ChainState } | undefined;
  private writes = 0;
  /** How the last item was chosen, for the call record. */
  choice: string | undefined;
  /** The file the last read_file opened. */
  private lastRead: string | undefined;

  constructor(
    private readonly world: AgentWorld,
    private readonly rule: ChoiceRule,
  ) {}

  private readBy(tool: string): Set<string> {
    let set = this.read.get(tool);
    if (!set) this.read.set(tool, (set = new Set()));
    return set;
  }

  /**
   * From the listing with probability fromListing, the position by the rule over the items not yet read with
   * this tool; undefined (the caller's random fallback) otherwise, or when every listed item has been read.
   */
  private pick(items: readonly string[], tool: string, step: ScriptStep): string | undefined {
    this.choice = 'random';
    if (step.draws[0] >= this.rule.fromListing) return undefined;
    const read = this.readBy(tool);
    const unread = items.filter((item) => !read.has(item));
    const at = position(unread.length, step.draws[1], this.rule.position);
    if (at >= 0) this.choice = `listing ${at}`;
    return unread[at];
  }

  /** With probability followsImports, a file the last file read imports and this agent has not read yet. */
  private followImport(step: ScriptStep): string | undefined {
    if (this.lastRead === undefined || step.draws[2] >= this.rule.followsImports) return undefined;
    const read = this.readBy(step.tool);
    const unread = (this.world.importsOf[this.lastRead] ?? []).filter((file) => !read.has(file));
    if (unread.length === 0) return undefined;
    const at = position(unread.length, step.draws[1], this.rule.position);
    this.choice = `import ${at}`;
    return unread[at];
  }

  /** The item for a call about one merge request or issue. */
  private item(kind: ItemKind, step: ScriptStep): string {
    const focus = this.focus?.kind === kind ? this.focus : undefined;
    // Writes go to the item in focus; a read stays on it when it follows another tool about it.
    if (
      focus &&
      (MUTATING_STATES.has(step.state) ||
        (focus.state !== step.state && step.draws[0] < this.rule.fromListing))
    ) {
      this.choice = 'focus';
      return focus.key;
    }
    const listed = kind === 'merge_request' ? this.mergeRequests.map((m) => m.key) : this.issues;
    const picked = this.pick(listed, step.tool, step);
    if (picked !== undefined) return picked;
    const count = kind === 'merge_request' ? this.world.mergeRequests : this.world.issues;
    return `${kind === 'merge_request' ? '!' : '#'}${1 + Math.floor(step.draws[1] * count)}`;
  }

  argsFor(step: ScriptStep): Record<string, unknown> {
    this.choice = undefined;
    const kind = ITEM_KIND[step.state];
    const key = kind && step.state !== 'create_issue' ? this.item(kind, step) : undefined;
    switch (step.state) {
      case 'glob':
        return { pattern: at(this.world.globPatterns, step.draws[2]) ?? '**/*.ts' };
      case 'grep': {
        const target = at(this.world.grepTargets, step.draws[2]) ?? { pattern: 'TODO' };
        return { pattern: target.pattern, ...(target.glob ? { glob: target.glob } : {}) };
      }
      case 'read_file': {
        const path =
          this.pick(this.files, step.tool, step) ??
          this.followImport(step) ??
          at(this.world.files, step.draws[1]) ??
          'README.md';
        this.lastRead = path;
        return { path };
      }
      case 'list_directory': {
        const file = at(this.world.files, step.draws[2]) ?? 'README.md';
        return { path: file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.' };
      }
      case 'get_merge_requests':
        return { ...at(MERGE_REQUEST_LISTS, step.draws[2]) };
      case 'get_issues':
        return { ...at(ISSUE_LISTS, step.draws[2]) };
      case 'get_branch_pipeline': {
        const branch =
          this.focus?.kind === 'merge_request' && step.draws[2] >= 0.5
            ? this.mergeRequests.find((m) => m.key === this.focus?.key)?.branch
            : undefined;
        return branch ? { branch } : {};
      }
      case 'get_job_logs':
        return {
          job_id:
            this.pick(this.jobs, step.tool, step) ??
            String(at(REPLAY_JOB_IDS, step.draws[1]) ?? REPLAY_JOB_IDS[0]),
        };
      case 'create_issue':
        return { title: `Replay issue ${++this.writes}`, body: 'Found while replaying a session.' };
      case 'update_issue':
        return { key, title: `Replay update ${++this.writes}` };
      case 'add_issue_comment':
      case 'create_merge_request_comment':
        return { key, body: `Replay comment ${++this.writes}` };
      default:
        // The item reads: get_merge_request(_discussions|_diffs), get_merge_request_pipeline, get_issue(_comments).
        return { key };
    }
  }

  /** Takes in what a call returned: new listings, what was read, the item in focus. */
  observe(step: ScriptStep, args: Record<string, unknown>, result: object): void {
    const data = (result as { structuredContent?: Record<string, unknown>; isError?: boolean }).isError
      ? undefined
      : (result as { structuredContent?: Record<string, unknown> }).structuredContent;
    const id =
      typeof args.path === 'string' ? args.path : typeof args.key === 'string' ? args.key : undefined;
    if (id !== undefined) this.readBy(step.tool).add(id);
    if (typeof args.job_id === 'string') this.readBy(step.tool).add(args.job_id);
    const kind = ITEM_KIND[step.state];
    const createdKey = (data?.item as { key?: unknown } | undefined)?.key;
    this.focus =
      kind === undefined
        ? undefined
        : step.state === 'create_issue'
          ? typeof createdKey === 'string'
            ? { kind, key: createdKey, state: step.state }
            : undefined
          : { kind, key: String(args.key), state: step.state };
    if (data === undefined) return;
    if (step.state === 'glob' && Array.isArray(data.paths))
      this.files = (data.paths as unknown[]).map(String);
    if (step.state === 'grep' && Array.isArray(data.matches)) {
      const paths = (data.matches as { path?: unknown }[]).map((m) => String(m.path));
      this.files = [...new Set(paths)];
    }
    if (step.state === 'get_merge_requests' && Array.isArray(data.items)) {
      this.mergeRequests = (data.items as { key?: unknown; sourceBranch?: unknown }[]).map((m) => ({
        key: String(m.key),
        ...(typeof m.sourceBranch === 'string' ? { branch: m.sourceBranch } : {}),
      }));
    }
    if (step.state === 'get_issues' && Array.isArray(data.items))
      this.issues = (data.items as { key?: unknown }[]).map((i) => String(i.key));
    const jobs = (data.item as { jobs?: unknown } | undefined)?.jobs;
    if (data.kind === 'pipeline' && Array.isArray(jobs))
      this.jobs = (jobs as { id?: unknown }[]).map((j) => String(j.id));
  }
}

/**
 * The `_meta` of one agent run: a W3C `traceparent` whose trace id is fixed by the run's name, as an agent
 * sends one per run. Over 2026-07-28 HTTP, Foresight keys the agent stream by it (with the principal and the
 * client's name), so each run is a stream of its own even where runs share a client name; a 2025 session is
 * one stream anyway.
 */
export function runMeta(run: string): Record<string, string> {
  const digest = createHash('sha256').update(run).digest('hex');
  return { [TRACEPARENT_META_KEY]: `00-${digest.slice(0, 32)}-${digest.slice(32, 48)}-01` };
}

/** What the agent calls its tools through: one client, or (the cluster replay) several in turn. */
export type AgentClient = Pick<Client, 'callTool'>;

export interface AgentOptions {
  client: AgentClient;
  /** A client of a host with the planner off over the same upstream data, without latency. */
  reference: Client;
  /**
   * How many of the agent's own (non-speculative) calls of a published tool reached the plugin so far; set
   * for the workspace, whose glob and grep answers are then checked against the reference host only when the
   * call did not reach the plugin (an answer the plugin made during the call reflects the disk at that moment).
   */
  reachedPlugin?(tool: string): number;
  world: AgentWorld;
  rule: ChoiceRule;
  timeScale: number;
  /** `_meta` sent with every call (the run's traceparent), to the host under test and the reference alike. */
  requestMeta?: Record<string, string>;
}

/** Runs one session; the agent thinks (scaled) between calls, measured from each answer's arrival. */
export async function runAgent(script: SessionScript, options: AgentOptions): Promise<CallRecord[]> {
  const memory = new AgentMemory(options.world, options.rule);
  const records: CallRecord[] = [];
  const meta = options.requestMeta ? { _meta: options.requestMeta } : {};
  let answeredAt = performance.now();
  for (const [index, step] of script.steps.entries()) {
    const wait = answeredAt + step.thinkMs * options.timeScale - performance.now();
    if (wait > 0) await sleep(wait);
    const args = memory.argsFor(step);
    const reachedBefore = options.reachedPlugin?.(step.tool);
    const started = performance.now();
    const result = await options.client.callTool({ name: step.tool, arguments: args, ...meta });
    answeredAt = performance.now();
    const freshByConstruction =
      SEARCHES.has(step.state) &&
      reachedBefore !== undefined &&
      options.reachedPlugin?.(step.tool) === reachedBefore + 1;
    const prefetch = prefetchOf(result);
    const record: CallRecord = {
      step: index,
      state: step.state,
      tool: step.tool,
      args: canonicalJson(args),
      waitMs: answeredAt - started,
      isError: result.isError === true,
      ...(prefetch ? { prefetch: prefetch.source } : {}),
      ...(memory.choice ? { choice: memory.choice } : {}),
    };
    // Only the agent writes, one call at a time: the upstream now holds what a fresh read must show.
    if (freshByConstruction) record.stale = false;
    else if (!MUTATING_STATES.has(step.state)) {
      const fresh = await options.reference.callTool({ name: step.tool, arguments: args, ...meta });
      record.stale = resultData(fresh) !== resultData(result);
    }
    memory.observe(step, args, result);
    records.push(record);
  }
  return records;
}
