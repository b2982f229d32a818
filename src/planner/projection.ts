// Reads follow-up arguments out of a tool result: a small path syntax (`items[*].key`) over structured data,
// and filters (`| lines`, `| match(re)`) for results that carry a list as text, one item a line.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { FollowUpLink } from '../contract/index.js';

/** Most argument sets one follow-up link produces. */
export const MAX_ARGUMENT_SETS_PER_LINK = 3;

/** One step of a parsed projection; the filters (`lines`, `match`) come after every path step. */
export type ProjectionStep =
  | { kind: 'key'; name: string }
  | { kind: 'field'; name: string }
  | { kind: 'each' }
  | { kind: 'index'; at: number }
  | { kind: 'lines' }
  | { kind: 'match'; pattern: RegExp };

const STEP = /([^.[\]]+)|\[(\*|\d+)\]/g;
/** A projection that is one plain name (`match_path`): a field of the result or of each item it lists. */
const BARE_FIELD = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const MATCH_OPEN = 'match(';

/**
 * Parses `a.b[*].c[0]`: dotted keys, `[*]` for every element of an array, `[N]` for one; then any
 * number of `| filter`. A projection that is one plain name is a field step (see `fieldOf`). Throws on anything else, so a bad projection is refused with a message that
 * names it, not misread.
 */
export function parseProjection(projection: string): ProjectionStep[] {
  if (BARE_FIELD.test(projection)) return [{ kind: 'field', name: projection }];
  const bar = projection.indexOf('|');
  if (bar === -1) return parsePath(projection, projection);
  // A projection of filters alone (`| lines`) works on the data itself: a text result's text.
  const path = projection.slice(0, bar).trim();
  return [
    ...(path === '' ? [] : parsePath(path, projection)),
    ...parseFilters(projection, projection.slice(bar + 1)),
  ];
}

function parsePath(path: string, projection: string): ProjectionStep[] {
  const steps: ProjectionStep[] = [];
  let consumed = 0;
  for (const match of path.matchAll(STEP)) {
    const between = path.slice(consumed, match.index);
    if (between !== '' && between !== '.')
      throw new Error(`projection "${projection}": unexpected "${between}"`);
    if (match[1] !== undefined) steps.push({ kind: 'key', name: match[1] });
    else if (match[2] === '*') steps.push({ kind: 'each' });
    else steps.push({ kind: 'index', at: Number(match[2]) });
    consumed = match.index + match[0].length;
  }
  if (steps.length === 0 || consumed !== path.length)
    throw new Error(`projection "${projection}" is not a path such as items[*].key`);
  return steps;
}

/**
 * `lines | match(re)`, separated by `|`. A pattern may hold `|` and `)` itself, so `match(` takes
 * everything up to the projection's last `)`: it is the last filter.
 */
function parseFilters(projection: string, text: string): ProjectionStep[] {
  const steps: ProjectionStep[] = [];
  let rest = text.trimStart();
  for (;;) {
    if (rest.startsWith(MATCH_OPEN)) {
      const close = rest.lastIndexOf(')');
      if (close === -1 || rest.slice(close + 1).trim() !== '')
        throw new Error(`projection "${projection}": match(...) must be the last filter, closed by ")"`);
      steps.push({
        kind: 'match',
        pattern: compilePattern(projection, rest.slice(MATCH_OPEN.length, close)),
      });
      return steps;
    }
    const bar = rest.indexOf('|');
    const name = (bar === -1 ? rest : rest.slice(0, bar)).trim();
    if (name !== 'lines')
      throw new Error(`projection "${projection}": unknown filter "${name}" (filters: lines, match(re))`);
    steps.push({ kind: 'lines' });
    if (bar === -1) return steps;
    rest = rest.slice(bar + 1).trimStart();
  }
}

function compilePattern(projection: string, source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`projection "${projection}": match(${source}) is not a regular expression: ${reason}`, {
      cause: error,
    });
  }
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The member `name` of a table, as a list of none or one. */
function memberOf(value: unknown, name: string): unknown[] {
  return isTable(value) && Object.hasOwn(value, name) ? [value[name]] : [];
}

/**
 * A bare field name: the result's own field, then that field of each item of the lists it holds (the
 * result itself when it is a list, else each of its members that is one), in document order. So
 * `match_path` reads `{ matches: [{ match_path }, …] }` as well as `{ match_path }`.
 */
function fieldOf(value: unknown, name: string): unknown[] {
  const lists = Array.isArray(value)
    ? [value]
    : isTable(value)
      ? Object.values(value).filter(Array.isArray)
      : [];
  return [
    ...memberOf(value, name),
    ...lists.flatMap((list: unknown[]) => list.flatMap((item) => memberOf(item, name))),
  ];
}

/** The values one step reaches from one value, in document order. */
function applyStep(step: ProjectionStep, value: unknown): unknown[] {
  switch (step.kind) {
    case 'key':
      return memberOf(value, step.name);
    case 'field':
      return fieldOf(value, step.name);
    case 'each':
      return Array.isArray(value) ? value : [];
    case 'index':
      return Array.isArray(value) && step.at < value.length ? [value[step.at]] : [];
    case 'lines':
      // Blank lines and the spaces around a line (a trailing \r too) are layout, not items.
      return typeof value === 'string'
        ? value
            .split('\n')
            .map((line) => line.trim())
            .filter((line) => line !== '')
        : [];
    case 'match':
      return typeof value === 'string' ? matched(step.pattern, value) : [];
  }
}

/** The whole value when the pattern matches it, or its first capture group when the pattern has one. */
function matched(pattern: RegExp, value: string): string[] {
  const found = pattern.exec(value);
  if (!found) return [];
  const picked = found.length > 1 ? found[1] : value;
  return picked === undefined || picked === '' ? [] : [picked];
}

/** Parsed projections by text: the config's links are few, and each is evaluated after every call of its tool. */
const parsedProjections = new Map<string, ProjectionStep[]>();
const MAX_PARSED_PROJECTIONS = 256;

function stepsOf(projection: string): ProjectionStep[] {
  let steps = parsedProjections.get(projection);
  if (steps === undefined) {
    steps = parseProjection(projection);
    if (parsedProjections.size >= MAX_PARSED_PROJECTIONS) parsedProjections.clear();
    parsedProjections.set(projection, steps);
  }
  return steps;
}

/** Every value the projection reaches, in document order. */
export function evaluateProjection(data: unknown, projection: string): unknown[] {
  let current: unknown[] = [data];
  for (const step of stepsOf(projection)) current = current.flatMap((value) => applyStep(step, value));
  return current.filter((value) => value !== undefined && value !== null);
}

/**
 * The result's data: `structuredContent`, else the first text block that is a JSON object or array, else
 * its text blocks joined by newlines (for `| lines`: many servers list things as plain text), else undefined.
 */
export function resultData(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const texts: string[] = [];
  for (const block of result.content) {
    if (block.type !== 'text') continue;
    const parsed = parseJsonContainer(block.text);
    if (parsed !== undefined) return parsed;
    texts.push(block.text);
  }
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/**
 * The object or array a text holds as JSON, else undefined. A text that is one JSON scalar (a listing of
 * one number, say) stays text: no path reaches into a scalar, but `| lines` reads it.
 */
function parseJsonContainer(text: string): unknown {
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
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
