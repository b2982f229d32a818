// Whether a request asks to change something or only to read, and whether a tool changes things: a request that
// only reads ranks the tools that write below those that read the same object, and the other way round.
import { words } from './terms.js';

/** Verbs that ask for a change wherever a request uses them. */
const WRITE_REQUEST_VERBS = new Set(
  (
    'create add update edit change modify delete remove set assign unassign write reply reopen rename upload send ' +
    'submit approve reject transition cancel retry rerun restart trigger deploy publish archive raise make mark ' +
    'unlink attach retarget rebase revert bump'
  ).split(' '),
);

/** Words that are change verbs only when they lead the request ("label it", not "issues with the label"). */
const LEADING_WRITE_VERBS = new Set(
  'post comment close merge move file log link label put schedule tag'.split(' '),
);

/** Verbs that ask to read, even beside a word above ("find the comment", "show the log"). */
const READ_REQUEST_VERBS = new Set(
  'get list show find search read fetch view see display look what which who where when how is are does did'.split(
    ' ',
  ),
);

/** A tool name's leading verbs that say it writes; verbs that say it reads. */
const WRITE_TOOL_VERBS = new Set(
  (
    'create add update edit delete remove set assign post write reply comment close reopen merge move rename upload ' +
    'send submit approve reject transition cancel retry rerun restart trigger deploy publish archive link unlink ' +
    'attach put patch insert upsert'
  ).split(' '),
);
const READ_TOOL_VERBS = new Set(
  'get list search find read fetch show view query count describe glob grep lookup download export'.split(
    ' ',
  ),
);

export type Intent = 'read' | 'write' | 'unknown';

/**
 * What a request asks for, by its verbs: a read verb leading it reads, a change verb leading it or an unmistakable
 * one anywhere writes, and the rest reads.
 */
export function requestIntent(request: string): Intent {
  const said = words(request);
  const first = said[0] === 'please' ? said[1] : said[0];
  if (first !== undefined && READ_REQUEST_VERBS.has(first)) return 'read';
  if (first !== undefined && LEADING_WRITE_VERBS.has(first)) return 'write';
  if (said.some((word) => WRITE_REQUEST_VERBS.has(word))) return 'write';
  // A request that names things without a change verb ("GitLab issues with the security label") reads them.
  return said.length > 0 ? 'read' : 'unknown';
}

/**
 * What a tool does: its annotations when they say (`readOnlyHint`), else the first verb of its local name
 * (`gh__create_issue` → write, `gh__get_issue` → read).
 */
export function toolIntent(name: string, annotations?: { readOnlyHint?: unknown }): Intent {
  if (annotations?.readOnlyHint === true) return 'read';
  if (annotations?.readOnlyHint === false) return 'write';
  const local = name.includes('__') ? name.slice(name.lastIndexOf('__') + 2) : name;
  for (const word of words(local)) {
    if (WRITE_TOOL_VERBS.has(word)) return 'write';
    if (READ_TOOL_VERBS.has(word)) return 'read';
  }
  return 'unknown';
}

/** How much a tool's score counts for a request: less when one reads and the other writes. */
export function intentFactor(request: Intent, tool: Intent): number {
  if (request === 'unknown' || tool === 'unknown' || request === tool) return 1;
  return request === 'read' ? 0.6 : 0.8;
}
