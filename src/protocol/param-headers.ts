// Mcp-Param-{Name} headers of 2026-07-28 tool calls over HTTP (SEP-2243): a parameter a tool marks with
// `x-mcp-header` is mirrored by the client into a header, which must match the body, decoded when Base64-wrapped.
import type { McpTool } from '../contract/index.js';

/** A parameter mirrored into a header: the header's name part and the chain of `properties` keys to the value. */
export interface HeaderParam {
  header: string;
  path: readonly string[];
}

const BASE64_WRAPPED = /^=\?base64\?(.*)\?=$/s;
/** Canonical Base64 with padding: an invalid length or alphabet is refused, not decoded leniently. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** What a plain header value may hold: visible ASCII, space and tab. */
const PLAIN = /^[\t\x20-\x7E]*$/;

/** The parameters a tool mirrors into headers: only those reachable from the root through `properties`. */
export function headerParams(schema: McpTool['inputSchema']): HeaderParam[] {
  const found: HeaderParam[] = [];
  const visit = (node: unknown, path: string[]) => {
    const properties = (node as { properties?: unknown } | undefined)?.properties;
    if (typeof properties !== 'object' || properties === null) return;
    for (const [name, child] of Object.entries(properties)) {
      const header = (child as Record<string, unknown> | null)?.['x-mcp-header'];
      if (typeof header === 'string' && header !== '') found.push({ header, path: [...path, name] });
      visit(child, [...path, name]);
    }
  };
  visit(schema, []);
  return found;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The value a header carries, decoded; undefined when it is malformed (bad Base64, characters a header may not hold). */
export function decodeParamHeader(raw: string): string | undefined {
  const wrapped = BASE64_WRAPPED.exec(raw);
  if (!wrapped) return PLAIN.test(raw) ? raw : undefined;
  const encoded = wrapped[1] ?? '';
  if (!BASE64.test(encoded)) return undefined;
  return Buffer.from(encoded, 'base64').toString('utf8');
}

/**
 * Why the headers of a call disagree with its arguments, or undefined when they agree: each mirrored parameter
 * present in the body needs its header with the same value; a header for a parameter the body lacks is refused too.
 */
export function paramHeaderMismatch(
  params: readonly HeaderParam[],
  args: unknown,
  headerOf: (name: string) => string | undefined,
): string | undefined {
  for (const { header, path } of params) {
    const name = `Mcp-Param-${header}`;
    const value = valueAt(args, path);
    const raw = headerOf(name.toLowerCase());
    const parameter = path.join('.');
    if (value === undefined || value === null) {
      if (raw !== undefined) return `${name} is sent, but the arguments have no ${parameter}`;
      continue;
    }
    if (raw === undefined) return `${name} is missing; it must mirror the argument ${parameter}`;
    const decoded = decodeParamHeader(raw);
    if (decoded === undefined)
      return `${name} is malformed: not Base64 inside =?base64?…?=, or characters a header value may not hold`;
    if (decoded !== String(value)) return `${name} does not match the argument ${parameter}`;
  }
  return undefined;
}
