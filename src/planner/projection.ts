// Reads follow-up arguments out of a tool result: a small path syntax (`items[*].key`) over structured data.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FollowUpLink } from '../enrich/index.js';

/** Most argument sets one follow-up link produces. */
export const MAX_ARGUMENT_SETS_PER_LINK = 3;

type Step = { kind: 'key'; name: string } | { kind: 'each' } | { kind: 'index'; at: number };

const STEP = /([^.[\]]+)|\[(\*|\d+)\]/g;

/**
 * Parses `a.b[*].c[0]`: dotted keys, `[*]` for every element of an array, `[N]` for one. Throws on
 * anything else, so a bad projection in a config is found when it is read, not at the first call.
 */
export function parseProjection(path: string): Step[] {
  const steps: Step[] = [];
  let consumed = 0;
  for (const match of path.matchAll(STEP)) {
    const between = path.slice(consumed, match.index);
    if (between !== '' && between !== '.') throw new Error(`projection "${path}": unexpected "${between}"`);
    if (match[1] !== undefined) steps.push({ kind: 'key', name: match[1] });
    else if (match[2] === '*') steps.push({ kind: 'each' });
    else steps.push({ kind: 'index', at: Number(match[2]) });
    consumed = match.index + match[0].length;
  }
  if (steps.length === 0 || consumed !== path.length)
    throw new Error(`projection "${path}" is not a path such as items[*].key`);
  return steps;
}

/** Every value the path reaches, in document order. */
export function evaluateProjection(data: unknown, path: string): unknown[] {
  let current: unknown[] = [data];
  for (const step of parseProjection(path)) {
    const next: unknown[] = [];
    for (const value of current) {
      if (step.kind === 'key') {
        if (
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.hasOwn(value, step.name)
        )
          next.push((value as Record<string, unknown>)[step.name]);
      } else if (Array.isArray(value)) {
        if (step.kind === 'each') next.push(...value);
        else if (step.at < value.length) next.push(value[step.at]);
      }
    }
    current = next;
  }
  return current.filter((value) => value !== undefined && value !== null);
}

/** The result's structured data: `structuredContent`, else the first text block that parses as JSON. */
export function resultData(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  for (const block of result.content) {
    if (block.type !== 'text') continue;
    try {
      return JSON.parse(block.text) as unknown;
    } catch {
      // Not JSON: try the next block.
    }
  }
  return undefined;
}

/**
 * Argument sets for a follow-up link: `{ [projectionArg]: value }` for the first `limit` distinct values
 * the projection reaches (default MAX_ARGUMENT_SETS_PER_LINK).
 */
export function projectFollowUp(
  result: CallToolResult,
  link: FollowUpLink,
  limit = MAX_ARGUMENT_SETS_PER_LINK,
): Record<string, unknown>[] {
  if (link.projection === undefined || link.projectionArg === undefined) return [];
  const data = resultData(result);
  if (data === undefined) return [];
  const seen = new Set<string>();
  const sets: Record<string, unknown>[] = [];
  for (const value of evaluateProjection(data, link.projection)) {
    const key = JSON.stringify(value);
    if (seen.has(key)) continue;
    seen.add(key);
    sets.push({ [link.projectionArg]: value });
    if (sets.length === limit) break;
  }
  return sets;
}
