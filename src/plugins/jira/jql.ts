// get_issues' filters as JQL: the agent's own `query` kept as given, each unified filter added to it with AND.
import { type Args, str, strings } from '../kit/index.js';

/** A JQL string literal: quoted, with quotes and backslashes escaped. */
export const quote = (value: string): string => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** A user for JQL: "me" is the token's own account (currentUser()), anything else an accountId or user name. */
const person = (user: string): string => (/^@?me$/i.test(user) ? 'currentUser()' : quote(user));

const ORDER_BY = /(?<=\s)ORDER\s+BY\s/i;
/** The `project` field as a clause's field name: followed by one of JQL's operators. */
const PROJECT_CLAUSE = /(?<![\w.[])project\s*(?:!?=|!?~|[<>]=?|(?:not\s+in|in|is|was|changed)\b)/i;

/**
 * The query with each string literal ("…" or '…', backslash escapes inside) blanked to spaces, so what is searched
 * for in it is found only outside strings, at the same index as in the query.
 */
export function outsideStrings(query: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < query.length; i++) {
    const c = query[i] ?? '';
    if (quote === undefined) {
      if (c === '"' || c === "'") quote = c;
      out += quote === undefined ? c : ' ';
    } else if (c === '\\' && i + 1 < query.length) {
      out += '  ';
      i++;
    } else {
      if (c === quote) quote = undefined;
      out += ' ';
    }
  }
  return out;
}

/** Whether the agent's query names the project field itself (`text ~ "project plan"` does not). */
export const namesProject = (where: string): boolean => PROJECT_CLAUSE.test(outsideStrings(where));

const SORT_FIELDS: Readonly<Record<string, string>> = {
  created: 'created',
  updated: 'updated',
  priority: 'priority',
};

/** The agent's query split from its own ORDER BY, which must stay last. */
function splitOrder(query: string): { where: string; order?: string } {
  // Found in the query with its strings blanked (`summary ~ "sort order by date"` has none), cut at the same index.
  const padded = ` ${query}`;
  const match = ORDER_BY.exec(outsideStrings(padded));
  if (!match) return { where: query.trim() };
  const order = padded.slice(match.index + match[0].length).trim();
  return { where: padded.slice(0, match.index).trim(), ...(order ? { order } : {}) };
}

/**
 * The JQL of a get_issues call. Issues are scoped to `projects` unless the query names projects itself;
 * `state` defaults to open issues unless a query is given (which then decides).
 */
export function issuesJql(args: Args, projects: readonly string[]): string {
  const query = str(args.query);
  const { where, order } = query ? splitOrder(query) : { where: '' };
  const clauses: string[] = [];
  if (where) clauses.push(`(${where})`);
  const projectId = str(args.projectId);
  if (projectId) clauses.push(`project = ${quote(projectId)}`);
  else if (!namesProject(where)) {
    clauses.push(
      projects.length === 1
        ? `project = ${quote(projects[0] ?? '')}`
        : `project in (${projects.map(quote).join(', ')})`,
    );
  }
  const state = str(args.state) ?? (query ? 'all' : 'open');
  if (state === 'open') clauses.push('statusCategory != Done');
  if (state === 'closed') clauses.push('statusCategory = Done');
  const search = str(args.search);
  if (search) clauses.push(`text ~ ${quote(search)}`);
  for (const label of strings(args.labels) ?? []) clauses.push(`labels = ${quote(label)}`);
  const assignee = str(args.assignee);
  if (assignee) clauses.push(`assignee = ${person(assignee)}`);
  const author = str(args.author);
  if (author) clauses.push(`reporter = ${person(author)}`);
  const priority = str(args.priority);
  if (priority) clauses.push(`priority = ${quote(priority)}`);
  const type = str(args.type);
  if (type) clauses.push(`issuetype = ${quote(type)}`);
  const statuses = strings(args.statuses);
  if (statuses?.length) clauses.push(`status in (${statuses.map(quote).join(', ')})`);
  const dates: [string, string, '>=' | '<'][] = [
    ['created_after', 'created', '>='],
    ['created_before', 'created', '<'],
    ['updated_after', 'updated', '>='],
    ['due_after', 'due', '>='],
    ['due_before', 'due', '<'],
  ];
  for (const [param, field, op] of dates) {
    const day = str(args[param]);
    if (day) clauses.push(`${field} ${op} ${quote(day)}`);
  }
  const sort = SORT_FIELDS[str(args.sort) ?? 'created'] ?? 'created';
  const direction = str(args.order) === 'asc' ? 'ASC' : 'DESC';
  return `${clauses.join(' AND ')} ORDER BY ${order ?? `${sort} ${direction}`}`;
}
