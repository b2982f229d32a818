// The per-kind views: what an issue, merge request, comment, changed file, job and pipeline show, for every writer.
import type {
  CommentShape,
  DiffFileShape,
  FieldShape,
  IssueShape,
  JobShape,
  MergeRequestShape,
  PipelineShape,
  SprintShape,
  StatusShape,
  UserShape,
} from '../contract/index.js';
import {
  type ItemView,
  assigneesField,
  authorField,
  commentsField,
  dateField,
  labelsField,
  num,
  shownDate,
  shownValue,
  str,
  strs,
  wordField,
} from './item-view.js';

export const issueView: ItemView<IssueShape> = {
  noun: 'issues',
  heading: 'Issues',
  style: 'rows',
  keyLabel: 'Key',
  key: (issue) => str(issue.key),
  title: (issue) => str(issue.title),
  state: (issue) => str(issue.state),
  url: (issue) => str(issue.url),
  fields: [
    authorField(),
    assigneesField(),
    labelsField(),
    wordField('Type', 'type', (issue) => issue.type),
    wordField('Priority', 'priority', (issue) => issue.priority),
    wordField('Milestone', 'milestone', (issue) => issue.milestone),
    wordField('Parent', 'parent', (issue) => issue.parent),
    {
      label: 'Links',
      value: (issue) => {
        if (!Array.isArray(issue.links)) return undefined;
        const shown = issue.links.flatMap((link) => {
          const key = str(link?.key);
          const relation = str(link?.relation);
          if (key === undefined || relation === undefined) return [];
          const state = str(link.state);
          return [[relation, key, str(link.title), state && `(${state})`].filter(Boolean).join(' ')];
        });
        return shown.length > 0 ? shown : undefined;
      },
      compact: (text) => `links: ${text}`,
      join: '; ',
    },
    dateField('Created', 'created', (issue) => issue.createdAt),
    dateField('Updated', 'updated', (issue) => issue.updatedAt),
    dateField('Closed', 'closed', (issue) => issue.closedAt),
    commentsField(),
    {
      label: 'Fields',
      value: (issue) => {
        const fields = issue.customFields;
        if (typeof fields !== 'object' || fields === null) return undefined;
        const shown = Object.entries(fields).flatMap(([name, value]) => {
          const text = shownValue(value);
          return text === undefined ? [] : [`${name}: ${text}`];
        });
        return shown.length > 0 ? shown : undefined;
      },
      compact: (text) => `{${text}}`,
      join: '; ',
    },
  ],
  text: (issue) => str(issue.body),
  textLabel: 'Description',
};

export const mergeRequestView: ItemView<MergeRequestShape> = {
  noun: 'merge requests',
  heading: 'Merge requests',
  style: 'rows',
  keyLabel: 'Key',
  key: (mr) => str(mr.key),
  title: (mr) => str(mr.title),
  state: (mr) => str(mr.state),
  url: (mr) => str(mr.url),
  fields: [
    { label: 'Draft', value: (mr) => (mr.draft === true ? 'yes' : undefined), compact: () => 'draft' },
    authorField(),
    assigneesField(),
    { label: 'Reviewers', value: (mr) => strs(mr.reviewers), compact: (text) => `review: ${text}` },
    labelsField(),
    {
      label: 'Branches',
      value: (mr) => {
        const source = str(mr.sourceBranch);
        const target = str(mr.targetBranch);
        if (source === undefined && target === undefined) return undefined;
        return `${source ?? '?'} → ${target ?? '?'}`;
      },
      compact: (text) => text,
    },
    dateField('Created', 'created', (mr) => mr.createdAt),
    dateField('Updated', 'updated', (mr) => mr.updatedAt),
    dateField('Merged', 'merged', (mr) => mr.mergedAt),
    dateField('Closed', 'closed', (mr) => mr.closedAt),
    commentsField(),
  ],
  text: (mr) => str(mr.body),
  textLabel: 'Description',
};

export const commentView: ItemView<CommentShape> = {
  noun: 'comments',
  heading: 'Comments',
  style: 'sections',
  keyLabel: 'Id',
  key: (comment) => str(comment.id),
  title: () => undefined,
  state: () => undefined,
  url: (comment) => str(comment.url),
  fields: [
    authorField(),
    { label: 'Created', value: (c, detail) => shownDate(c.createdAt, detail), compact: (text) => text },
    dateField('Edited', 'edited', (comment) =>
      comment.updatedAt === comment.createdAt ? undefined : comment.updatedAt,
    ),
    {
      label: 'Where',
      value: (comment) => {
        const path = str(comment.path);
        const line = num(comment.line);
        return path === undefined ? undefined : line === undefined ? path : `${path}:${line}`;
      },
      compact: (text) => `on ${text}`,
    },
    {
      label: 'Thread',
      value: (c) => (typeof c.resolved === 'boolean' ? (c.resolved ? 'resolved' : 'unresolved') : undefined),
      compact: (text) => text,
    },
  ],
  text: (comment) => str(comment.body),
  textLabel: 'Comment',
};

export const diffFileView: ItemView<DiffFileShape> = {
  noun: 'changed files',
  heading: 'Changed files',
  style: 'sections',
  keyLabel: 'File',
  key: (file) => {
    const path = str(file.path);
    const old = str(file.oldPath);
    return old !== undefined && old !== path ? `${old} → ${path ?? '?'}` : path;
  },
  title: () => undefined,
  state: (file) => str(file.status),
  url: () => undefined,
  fields: [
    { label: 'Added', value: (file) => str(num(file.additions)), compact: (text) => `+${text}` },
    { label: 'Deleted', value: (file) => str(num(file.deletions)), compact: (text) => `-${text}` },
    {
      label: 'Diff',
      value: (file) => (file.truncated === true ? 'cut by the provider' : undefined),
      compact: () => 'diff cut by the provider',
    },
  ],
  text: (file) => str(file.diff),
  textLabel: 'Diff',
  fence: 'diff',
};

export const jobView: ItemView<JobShape> = {
  noun: 'jobs',
  heading: 'Jobs',
  style: 'rows',
  keyLabel: 'Job',
  key: (job) => str(job.name) ?? str(job.id),
  title: () => undefined,
  state: (job) => str(job.status),
  url: (job) => str(job.url),
  fields: [
    wordField('Stage', 'stage', (job) => job.stage),
    {
      label: 'Duration',
      column: 'duration (s)',
      value: (job) => str(num(job.durationS)),
      compact: (text) => `${text}s`,
    },
    wordField('Id', 'id', (job) => (str(job.name) === undefined ? undefined : job.id)),
  ],
  text: () => undefined,
  textLabel: 'Log',
};

export const pipelineView: ItemView<PipelineShape> = {
  noun: 'pipelines',
  heading: 'Pipelines',
  style: 'rows',
  keyLabel: 'Pipeline',
  key: (pipeline) => {
    const id = str(pipeline.id);
    return id === undefined ? undefined : `Pipeline ${id}`;
  },
  title: () => undefined,
  state: (pipeline) => str(pipeline.status),
  url: (pipeline) => str(pipeline.url),
  fields: [
    wordField('Ref', 'ref', (pipeline) => pipeline.ref),
    wordField('Commit', 'commit', (pipeline) => pipeline.sha),
    dateField('Created', 'created', (pipeline) => pipeline.createdAt),
  ],
  text: () => undefined,
  textLabel: 'Log',
};

export const statusView: ItemView<StatusShape> = {
  noun: 'statuses',
  heading: 'Statuses',
  style: 'rows',
  keyLabel: 'Status',
  key: (status) => str(status.name),
  title: () => undefined,
  state: () => undefined,
  url: () => undefined,
  fields: [
    wordField('Category', 'category', (status) => status.category),
    wordField('Applies to', 'for', (status) => status.scope),
    wordField('Transition', 'via', (status) => status.transition),
  ],
  text: () => undefined,
  textLabel: 'Description',
};

export const fieldView: ItemView<FieldShape> = {
  noun: 'fields',
  heading: 'Custom fields',
  style: 'rows',
  keyLabel: 'Field',
  key: (field) => str(field.name),
  title: () => undefined,
  state: () => undefined,
  url: () => undefined,
  fields: [
    wordField('Type', 'type', (field) => field.type),
    wordField('Parameter', 'param', (field) => field.param),
    {
      label: 'Required',
      value: (field) => (field.required === true ? 'yes' : undefined),
      compact: () => 'required',
    },
    {
      label: 'Options',
      value: (field) => strs(field.options),
      compact: (text) => `one of ${text}`,
      join: ', ',
    },
    wordField('Applies to', 'for', (field) => field.scope),
    wordField('Id', 'id', (field) => field.id),
  ],
  text: () => undefined,
  textLabel: 'Description',
};

export const userView: ItemView<UserShape> = {
  noun: 'users',
  heading: 'Users',
  style: 'rows',
  keyLabel: 'User',
  key: (user) => str(user.name),
  title: () => undefined,
  state: (user) => (user.active === false ? 'inactive' : undefined),
  url: () => undefined,
  fields: [
    wordField('Username', 'username', (user) => user.username),
    wordField('Email', 'email', (user) => user.email),
    wordField('Id', 'id', (user) => user.id),
  ],
  text: () => undefined,
  textLabel: 'Description',
};

export const sprintView: ItemView<SprintShape> = {
  noun: 'sprints',
  heading: 'Sprints',
  style: 'rows',
  keyLabel: 'Sprint',
  key: (sprint) => str(sprint.name),
  title: () => undefined,
  state: (sprint) => str(sprint.state),
  url: () => undefined,
  fields: [
    wordField('Id', 'id', (sprint) => sprint.id),
    wordField('Board', 'board', (sprint) => sprint.board),
    dateField('Starts', 'from', (sprint) => sprint.startAt),
    dateField('Ends', 'to', (sprint) => sprint.endAt),
    dateField('Completed', 'completed', (sprint) => sprint.completeAt),
  ],
  text: (sprint) => str(sprint.goal),
  textLabel: 'Goal',
};
