// Issue and merge-request keys in the forms people write them: "#123", "!45", "123", or the item's web URL.
import { PluginError } from '../../contract/index.js';
import { ISSUE_TOOLS, MERGE_REQUEST_TOOLS } from './tools.js';

export type NumberedKind = 'issue' | 'merge_request';

const URL_SEGMENTS: Readonly<Record<NumberedKind, RegExp>> = {
  issue: /\/(?:-\/)?(?:issues|work_items)\/(\d+)(?:[/?#].*)?$/,
  merge_request: /\/(?:-\/)?(?:pull|pulls|merge_requests)\/(\d+)(?:[/?#].*)?$/,
};

const FORMS: Readonly<Record<NumberedKind, string>> = {
  issue: '"#123", 123 or the issue\'s URL',
  merge_request: '"#45", "!45", 45 or the request\'s URL',
};

/**
 * The number in a key: "#12", "!12" (merge requests), "12", 12, or a web URL ending in /issues/12,
 * /pull/12 or /merge_requests/12. Anything else is refused with the forms that work.
 */
export function parseNumberedKey(key: unknown, kind: NumberedKind, param = 'key'): number {
  if (typeof key === 'number' && Number.isSafeInteger(key) && key > 0) return key;
  if (typeof key === 'string') {
    const trimmed = key.trim();
    const sigil = kind === 'merge_request' ? /^[#!]?(\d+)$/ : /^#?(\d+)$/;
    const match = sigil.exec(trimmed) ?? URL_SEGMENTS[kind].exec(trimmed);
    const number = match?.[1] === undefined ? Number.NaN : Number(match[1]);
    if (Number.isSafeInteger(number) && number > 0) return number;
  }
  throw new PluginError(
    'invalid_input',
    `parameter "${param}" is ${JSON.stringify(key)}, which is not ${kind === 'issue' ? 'an issue' : 'a pull or merge request'} key; use ${FORMS[kind]}`,
  );
}

/** "#12" for issues and GitHub pull requests, "!12" for GitLab merge requests. */
export function numberedKey(number: number, sigil: '#' | '!' = '#'): string {
  return `${sigil}${number}`;
}

/** Which kind of key each unified tool's `key` parameter holds; tools without one are absent. */
function keyKindOf(tool: string): NumberedKind | undefined {
  const issue = ISSUE_TOOLS as Record<string, { inputSchema: { properties?: object } } | undefined>;
  const mergeRequest = MERGE_REQUEST_TOOLS as Record<
    string,
    { inputSchema: { properties?: object } } | undefined
  >;
  if (issue[tool]?.inputSchema.properties && 'key' in issue[tool].inputSchema.properties) return 'issue';
  if (mergeRequest[tool]?.inputSchema.properties && 'key' in mergeRequest[tool].inputSchema.properties)
    return 'merge_request';
  return undefined;
}

/**
 * Rewrites a unified tool's `key` into its one canonical form ("#12"; GitLab merge requests "!12"), in
 * place. "12", 12, "#12" and the item's URL name the same item, and must look the same to the
 * planner: its cache matches calls by their arguments, and a write drops the cached reads whose key
 * equals its own. A key that does not parse is left for the tool to refuse in its own words.
 */
export function canonicalizeKey(
  tool: string,
  args: Record<string, unknown>,
  mergeRequestSigil: '#' | '!',
): void {
  const kind = keyKindOf(tool);
  if (kind === undefined || args.key === undefined) return;
  let number: number;
  try {
    number = parseNumberedKey(args.key, kind);
  } catch {
    return;
  }
  args.key = numberedKey(number, kind === 'merge_request' ? mergeRequestSigil : '#');
}
