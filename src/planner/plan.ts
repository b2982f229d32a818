// Plans speculative follow-up calls after a tool call: candidates from the follow-up graph, ranked by expected value within a token budget.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { FollowUpLink, ToolValueModel } from '../contract/index.js';
import { MAX_ARGUMENT_SETS_PER_LINK, projectFollowUp } from './projection.js';
import { mayRunAhead } from './value-models.js';

/**
 * What a result of each value class is worth to the agent, on a 0–1 scale: a `critical` result is one
 * the agent cannot go on without, `supporting` usually helps, `optional` sometimes helps, and
 * `audit_only` is kept for the record and rarely read. Only the ratios matter for ranking.
 */
export const VALUE_WEIGHTS: Readonly<Record<ToolValueModel['valueClass'], number>> = {
  critical: 1.0,
  supporting: 0.6,
  optional: 0.3,
  audit_only: 0.1,
};

/** Rough size of a kilobyte of tool output in model tokens. */
export const TOKENS_PER_KB = 256;

export interface PlanInput {
  /** The tool just called (published name) and its result. */
  tool: string;
  result: CallToolResult;
  /** The called tool's value model (its followUp links name published tools). */
  model: ToolValueModel;
  /** Value model of any published tool, undefined when unknown (then the candidate is dropped: unknown side effects never run). */
  modelOf(tool: string): ToolValueModel | undefined;
  /**
   * The enricher's own projection for a link, when it has one (ToolEnricher.projectArgs); undefined =
   * use the generic projection. The caller guards enricher code: a throw here propagates.
   */
  projectArgs?(link: FollowUpLink): Record<string, unknown>[] | undefined;
  /**
   * The probability that the agent makes the call of `link` with the argument set at `position` (0 =
   * the link's first set): learned from what the agent did. Default: the link's probability for every set.
   */
  probabilityOf?(link: FollowUpLink, position: number): number;
  /** True when (tool, args) is cached and fresh or already in flight: such candidates are dropped. */
  isCovered(tool: string, canonicalArgs: string): boolean;
  settings: { probabilityFloor: number; tokenBudget: number };
}

export interface Candidate {
  /** Published name of the tool to call. */
  tool: string;
  args: Record<string, unknown>;
  /** Canonical JSON of `args` (see `canonicalJson`), for cache keys. */
  key: string;
  /** The follow-up link's probability for this argument set (see `PlanInput.probabilityOf`). */
  probability: number;
  /** Which of the link's argument sets this is (0 = first). */
  position: number;
  /** probability × value weight ÷ estimatedTokens. */
  score: number;
  /** Expected size of the result in tokens (typicalKb × TOKENS_PER_KB, at least 1). */
  estimatedTokens: number;
}

/**
 * JSON with object keys sorted (by UTF-16 code units, at every depth), so equal arguments give equal
 * strings whatever order their keys were written in. Array order is kept. Otherwise as
 * `JSON.stringify`: `toJSON` is honoured, undefined/function/symbol members are left out (null in
 * arrays), non-finite numbers become null; a top-level value with no JSON form gives `"null"`.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value) ?? 'null';
}

function serialize(value: unknown): string | undefined {
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  )
    value = (value as { toJSON(): unknown }).toJSON();
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) as string | undefined;
  if (Array.isArray(value)) return `[${value.map((item) => serialize(item) ?? 'null').join(',')}]`;
  const members: string[] = [];
  for (const name of Object.keys(value).sort()) {
    const member = serialize((value as Record<string, unknown>)[name]);
    if (member !== undefined) members.push(`${JSON.stringify(name)}:${member}`);
  }
  return `{${members.join(',')}}`;
}

function estimateTokens(model: ToolValueModel): number {
  const tokens = Math.ceil(model.cost.typicalKb * TOKENS_PER_KB);
  return Number.isFinite(tokens) && tokens >= 1 ? tokens : 1;
}

/**
 * The follow-up calls worth making now, best first. Per link: the first MAX_ARGUMENT_SETS_PER_LINK
 * distinct argument sets (from `projectArgs` when it returns an array, else the link's projection),
 * each kept when its probability is ≥ the floor; dropped are links to tools with no model, tools that
 * may not run speculatively, repeated (tool, arguments) pairs (the one with the higher probability
 * stays, the earlier on a tie) and pairs already covered. Ranked by score, then probability, then link order;
 * then taken greedily while the estimated tokens fit the budget, skipping any that do not fit.
 * Pure: no I/O, no clock.
 */
export function planFollowUps(input: PlanInput): Candidate[] {
  const { probabilityFloor, tokenBudget } = input.settings;
  const byKey = new Map<string, { candidate: Candidate; order: number }>();
  let order = 0;
  for (const link of input.model.followUp) {
    // Without learned probabilities every set has the link's own: a link under the floor has nothing to offer.
    if (input.probabilityOf === undefined && !(link.probability >= probabilityFloor)) continue;
    const target = input.modelOf(link.tool);
    if (target === undefined || !mayRunAhead(target)) continue;
    const estimatedTokens = estimateTokens(target);
    const sets = input.projectArgs?.(link) ?? projectFollowUp(input.result, link);
    const seenInLink = new Set<string>();
    for (const args of sets) {
      // The cap counts distinct sets the link proposes, before covered ones are dropped: a covered
      // set is still one of the link's likeliest, and the ones after it are less likely to be used.
      if (seenInLink.size === MAX_ARGUMENT_SETS_PER_LINK) break;
      const key = canonicalJson(args);
      if (seenInLink.has(key)) continue;
      const position = seenInLink.size;
      seenInLink.add(key);
      const probability = input.probabilityOf?.(link, position) ?? link.probability;
      if (!(probability >= probabilityFloor)) continue;
      const id = `${link.tool}\u0000${key}`;
      const earlier = byKey.get(id);
      if (earlier !== undefined && earlier.candidate.probability >= probability) continue;
      if (input.isCovered(link.tool, key)) continue;
      const score = (probability * VALUE_WEIGHTS[target.valueClass]) / estimatedTokens;
      byKey.set(id, {
        candidate: { tool: link.tool, args, key, probability, position, score, estimatedTokens },
        order,
      });
      order += 1;
    }
  }
  const ranked = [...byKey.values()].sort(
    (a, b) =>
      b.candidate.score - a.candidate.score ||
      b.candidate.probability - a.candidate.probability ||
      a.order - b.order,
  );
  const chosen: Candidate[] = [];
  let spentTokens = 0;
  for (const { candidate } of ranked) {
    if (spentTokens + candidate.estimatedTokens > tokenBudget) continue;
    spentTokens += candidate.estimatedTokens;
    chosen.push(candidate);
  }
  return chosen;
}
