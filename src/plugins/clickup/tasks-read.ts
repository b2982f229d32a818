// The read tools on tasks: get_issues (GET /list/{id}/task), get_issue (GET /task/{id}) and get_issue_comments.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { PluginError, type RequestContext } from '../../contract/index.js';
import {
  DEFAULT_LIMIT,
  type Args,
  type FetchedPage,
  int,
  shapedResult,
  str,
  strings,
  windowOfPages,
} from '../kit/index.js';
import type { ClickUpCommentJson, ClickUpTaskJson } from './api-types.js';
import { segment } from './client.js';
import { userIds } from './field-params.js';
import { isMe } from './me.js';
import { commentFromClickUp, issueFromTask, taskRelations } from './task-shape.js';
import {
  type ToolDeps,
  chosenListId,
  dayMs,
  keyOf,
  listMeta,
  membersOf,
  sendFor,
  taskPath,
} from './tool-io.js';

/** ClickUp answers 100 tasks a page, pages counted from 0. */
const TASKS_PER_PAGE = 100;
/**
 * Comments come 25 at a time, newest first; this many pages are read to show them oldest first. A task with
 * more shows its newest 200 (oldest first among them), without a total, and refuses a window past them.
 */
const MAX_COMMENT_PAGES = 8;
/** Status types that count as closed for `state`; the others (open, custom) count as open. */
const CLOSED_TYPES = new Set(['closed', 'done']);
const isClosedType = (type: string | undefined) => CLOSED_TYPES.has(type ?? '');

/** How one list's tasks are narrowed to a `state`: by ClickUp where it can, else here by status type. */
interface StateFilter {
  statuses: string[] | undefined;
  includeClosed: boolean;
  /** Set when ClickUp's answer still holds tasks of the other state. */
  keep?: (task: ClickUpTaskJson) => boolean;
}
const ORDER_BY: Readonly<Record<string, string>> = {
  created: 'created',
  updated: 'updated',
  due_date: 'due_date',
};

/** The millisecond before `ms`: the API's _gt filters are strict, so "on or after a day" is gt of the moment before. */
const before = (ms: number | undefined) => (ms === undefined ? undefined : ms - 1);

export function createTaskReadTools(deps: ToolDeps) {
  const { settings } = deps;
  const customIds = settings.customTaskIds;

  /**
   * open = every status whose type is not done or closed; closed = done and closed types. include_closed alone
   * only drops `closed`-type statuses, so with the list's statuses loaded the state goes out as statuses[] of
   * its types; with the agent's own statuses, or none loaded, the tasks ClickUp answers are kept by type.
   */
  function stateFilter(args: Args, listId: string): StateFilter {
    const state = str(args.state) ?? 'open';
    const asked = strings(args.statuses)?.length ? strings(args.statuses) : undefined;
    if (state !== 'open' && state !== 'closed') return { statuses: asked, includeClosed: true };
    const closed = state === 'closed';
    const ofState = listMeta(deps, listId)
      ?.statuses.filter((status) => isClosedType(status.type) === closed)
      .map((status) => status.status);
    if (asked === undefined && ofState?.length) return { statuses: ofState, includeClosed: closed };
    return {
      statuses: asked,
      includeClosed: closed,
      keep: (task) => isClosedType(task.status?.type) === closed,
    };
  }

  /**
   * The ids of `assignees` and `assignee` together: user ids, names or emails as create_issue takes them, and
   * "me" for the token's user (GET /user, read once and only when asked for).
   */
  async function assigneeIds(args: Args, ctx: RequestContext): Promise<number[] | undefined> {
    const given: [string, unknown][] = [
      ...(Array.isArray(args.assignees) ? args.assignees : []).map((v): [string, unknown] => [
        'assignees',
        v,
      ]),
      ...(args.assignee === undefined || args.assignee === ''
        ? []
        : [['assignee', args.assignee] as [string, unknown]]),
    ];
    if (!given.length) return undefined;
    const me = given.some(([, value]) => isMe(value)) ? await deps.whoAmI(ctx) : undefined;
    const members = membersOf(deps);
    const ids = given.map(([param, value]) =>
      isMe(value) && me ? me.id : (userIds(param, [value], members)[0] ?? 0),
    );
    return [...new Set(ids)];
  }

  function taskQuery(
    args: Args,
    page: number,
    filter: StateFilter,
    assignees: number[] | undefined,
  ): Record<string, string | number | boolean | string[] | number[] | undefined> {
    return {
      page,
      include_markdown_description: true,
      ...(filter.includeClosed ? { include_closed: true } : {}),
      order_by: ORDER_BY[str(args.sort) ?? 'created'] ?? 'created',
      // The reference says only that `reverse` flips the order; desc is taken to be ClickUp's default.
      ...(str(args.order) === 'asc' ? { reverse: true } : {}),
      statuses: filter.statuses,
      tags: strings(args.labels)?.length ? strings(args.labels) : undefined,
      assignees,
      date_created_gt: before(dayMs(args.created_after, 'created_after')),
      date_created_lt: dayMs(args.created_before, 'created_before'),
      date_updated_gt: before(dayMs(args.updated_after, 'updated_after')),
      due_date_gt: before(dayMs(args.due_after, 'due_after')),
      due_date_lt: dayMs(args.due_before, 'due_before'),
    };
  }

  async function getIssues(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const send = sendFor(deps, ctx);
    const chosen = chosenListId(deps, args.list);
    const lists = chosen === undefined ? settings.listIds : [chosen];
    const filters = lists.map((id) => stateFilter(args, id));
    const assignees = await assigneeIds(args, ctx);
    // Several lists read one after another as one sequence; `cursor` walks it across their pages.
    const cursor = { list: 0, page: 0 };
    const sequential = filters.some((filter) => filter.keep) || lists.length > 1;
    const fetchPage = async (page: number): Promise<FetchedPage<ClickUpTaskJson>> => {
      // One list without a filter starts on the page that holds `offset` (windowOfPages counts from 1).
      if (!sequential) cursor.page = page - 1;
      const listId = lists[cursor.list] ?? '';
      const filter = filters[cursor.list] ?? stateFilter(args, listId);
      const answer = await send<{ tasks?: ClickUpTaskJson[]; last_page?: boolean }>({
        method: 'GET',
        path: `/list/${segment(listId)}/task`,
        query: taskQuery(args, cursor.page, filter, assignees),
        target: `tasks of list ${listId}`,
      });
      const answered = answer.tasks ?? [];
      const tasks = filter.keep ? answered.filter(filter.keep) : answered;
      const lastOfList = answer.last_page !== false || answered.length < TASKS_PER_PAGE;
      if (lastOfList) Object.assign(cursor, { list: cursor.list + 1, page: 0 });
      else cursor.page++;
      return { items: tasks, hasNext: cursor.list < lists.length };
    };
    const window = await windowOfPages(fetchPage, {
      offset: int(args.offset, 0),
      limit: int(args.limit, DEFAULT_LIMIT),
      perPage: TASKS_PER_PAGE,
      // Tasks kept here by type, or several lists, make page boundaries unknown: pages are read from the first.
      ...(sequential ? { keep: () => true } : {}),
    });
    return shapedResult({
      kind: 'issue_list',
      items: window.items.map((task) => issueFromTask(task, customIds)),
      page: window.page,
    });
  }

  /** Every comment (up to MAX_COMMENT_PAGES pages), oldest first; `complete` when the last was reached. */
  async function allComments(args: Args, ctx: RequestContext) {
    const key = keyOf(deps, args.key);
    const { path, query } = taskPath(deps, key, '/comment');
    const send = sendFor(deps, ctx);
    const newestFirst: ClickUpCommentJson[] = [];
    for (let page = 0; page < MAX_COMMENT_PAGES; page++) {
      const oldest = newestFirst.at(-1);
      const answer = await send<{ comments?: ClickUpCommentJson[] }>({
        method: 'GET',
        path,
        query: { ...query, ...(oldest ? { start: String(oldest.date), start_id: String(oldest.id) } : {}) },
        target: `comments of task ${key.id}`,
      });
      const comments = answer.comments ?? [];
      newestFirst.push(...comments);
      if (comments.length < 25) return { key, comments: newestFirst.reverse(), complete: true };
    }
    return { key, comments: newestFirst.reverse(), complete: false };
  }

  async function getIssue(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const key = keyOf(deps, args.key);
    const { path, query } = taskPath(deps, key);
    const relations = args.include_relations === true;
    const task = await sendFor(
      deps,
      ctx,
    )<ClickUpTaskJson>({
      method: 'GET',
      path,
      query: {
        ...query,
        include_markdown_description: true,
        ...(relations ? { include_subtasks: true } : {}),
      },
      target: `task ${key.id}`,
    });
    const item = issueFromTask(task, customIds);
    if (relations) item.links = taskRelations(task, customIds);
    if (args.include_comments !== true) return shapedResult({ kind: 'issue', item });
    const { comments } = await allComments(args, ctx);
    return shapedResult({
      kind: 'issue',
      item,
      comments: comments.slice(0, DEFAULT_LIMIT).map((c) => commentFromClickUp(c, task.url)),
    });
  }

  async function getIssueComments(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const offset = int(args.offset, 0);
    const limit = int(args.limit, DEFAULT_LIMIT);
    const { key, comments, complete } = await allComments(args, ctx);
    if (!complete && offset + limit > comments.length) {
      throw new PluginError(
        'invalid_input',
        `task ${key.id} has more comments than Foresight reads at once (${comments.length}); ask for an earlier window`,
      );
    }
    return shapedResult({
      kind: 'comment_list',
      items: comments.slice(offset, offset + limit).map((c) => commentFromClickUp(c)),
      page: { offset, limit, ...(complete ? { total: comments.length } : {}) },
    });
  }

  return { get_issues: getIssues, get_issue: getIssue, get_issue_comments: getIssueComments };
}
