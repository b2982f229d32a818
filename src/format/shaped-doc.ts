// Recognises a ShapedResult, names its droppable list, and lays it out as a document with a format's writer.
import { SHAPED_RESULT_KINDS, type ShapedResult } from '../contract/index.js';
import type { Doc, ListSlot, Writer } from './doc.js';
import type { ItemView } from './item-view.js';
import {
  commentView,
  diffFileView,
  fieldView,
  issueView,
  jobView,
  mergeRequestView,
  pipelineView,
  sprintView,
  statusView,
  userView,
} from './views.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isRecordList = (value: unknown): boolean => Array.isArray(value) && value.every(isRecord);

/** `data` as a ShapedResult when its kind is known and its items or item are there; else undefined. */
export function asShaped(data: unknown): ShapedResult | undefined {
  if (!isRecord(data) || !(SHAPED_RESULT_KINDS as readonly unknown[]).includes(data.kind)) return undefined;
  if ('items' in data) return isRecordList(data.items) ? (data as ShapedResult) : undefined;
  if (!isRecord(data.item)) return undefined;
  const nested = data.kind === 'pipeline' ? data.item.jobs : data.comments;
  return nested === undefined || isRecordList(nested) ? (data as ShapedResult) : undefined;
}

const commentsRest = (leftOut: number) =>
  `the other ${leftOut} are left out; get them with the tool that lists comments.`;
const jobsRest = (leftOut: number) =>
  `the other ${leftOut} are left out (failed jobs come first); open the pipeline's URL for them.`;

/** The list whose tail a budget may drop: a list result's items, a detail's comments, a pipeline's jobs. */
export function shapedList(data: ShapedResult): ListSlot | undefined {
  const embedded = (items: readonly unknown[], noun: string, rest: (leftOut: number) => string) => ({
    items,
    noun,
    page: { offset: 0, total: items.length },
    rest,
  });
  switch (data.kind) {
    case 'issue':
    case 'merge_request':
      if (data.comments === undefined) return undefined;
      return {
        ...embedded(data.comments ?? [], commentView.noun, commentsRest),
        with: (comments) => ({ ...data, comments }),
      };
    case 'pipeline':
      return {
        ...embedded(data.item.jobs ?? [], jobView.noun, jobsRest),
        with: (jobs) => ({ ...data, item: { ...data.item, jobs } }),
      };
    default: {
      const noun = {
        issue_list: issueView,
        merge_request_list: mergeRequestView,
        comment_list: commentView,
        diff_list: diffFileView,
        status_list: statusView,
        field_list: fieldView,
        user_list: userView,
        sprint_list: sprintView,
      }[data.kind].noun;
      return {
        items: data.items,
        noun,
        page: data.page,
        rest: 'page',
        with: (items) => ({ ...data, items }),
      };
    }
  }
}

export function shapedDoc(data: ShapedResult, writer: Writer): Doc {
  const slot = shapedList(data);
  const list = <T>(view: ItemView<T>, items: readonly T[], nested: boolean) => ({
    ...writer.list(view, items, nested),
    noun: slot?.noun ?? view.noun,
    page: slot?.page,
    rest: slot?.rest ?? 'page',
  });
  switch (data.kind) {
    case 'issue_list':
      return { lead: [], list: list(issueView, data.items, false) };
    case 'merge_request_list':
      return { lead: [], list: list(mergeRequestView, data.items, false) };
    case 'comment_list':
      return { lead: [], list: list(commentView, data.items, false) };
    case 'diff_list':
      return { lead: [], list: list(diffFileView, data.items, false) };
    case 'status_list':
      return { lead: [], list: list(statusView, data.items, false) };
    case 'field_list':
      return { lead: [], list: list(fieldView, data.items, false) };
    case 'user_list':
      return { lead: [], list: list(userView, data.items, false) };
    case 'sprint_list':
      return { lead: [], list: list(sprintView, data.items, false) };
    case 'issue': {
      const lead = writer.detail(issueView, data.item);
      return data.comments === undefined ? { lead } : { lead, list: list(commentView, data.comments, true) };
    }
    case 'merge_request': {
      const lead = writer.detail(mergeRequestView, data.item);
      return data.comments === undefined ? { lead } : { lead, list: list(commentView, data.comments, true) };
    }
    case 'pipeline':
      return {
        lead: writer.detail(pipelineView, data.item),
        list: list(jobView, data.item.jobs ?? [], true),
      };
  }
}
