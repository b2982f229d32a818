// The clickup plugin's enricher: fits the unified tools to the configured lists (status enums, priority names,
// a typed cf_<name> parameter per custom field) and maps the agent's values back to what the API takes.
import { PluginError, type ToolEnricher, type ToolSchema } from '../../contract/index.js';
import { TRACKER_ONLY_FIELDS, trackerValueModel } from '../kit/index.js';
import { type FieldParam, type FieldWrite, fieldParams, paramSchema, toFieldWrite } from './field-params.js';
import { canonicalizeTaskKey } from './keys.js';
import { type MetadataStore, failedList, findList } from './metadata.js';
import type { ClickUpSettings } from './options.js';
import { PRIORITIES, priorityNumber } from './task-fields.js';
import { LINK_TYPES } from './tasks-write.js';

/** What ClickUp has of the tracker-only fields, per tool; the rest are removed. */
const KEPT: Readonly<Record<string, readonly string[]>> = {
  get_issues: ['statuses', 'created_after', 'created_before', 'updated_after', 'due_after', 'due_before'],
  create_issue: ['priority', 'status', 'points', 'parent', 'due_date'],
  update_issue: ['priority', 'status', 'points', 'parent', 'due_date'],
};
/** Unified parameters ClickUp has no counterpart for. */
const UNSUPPORTED: Readonly<Record<string, readonly string[]>> = {
  get_issues: ['search', 'author'],
  create_issue: ['milestone'],
  update_issue: ['milestone'],
};
const WRITES = new Set(['create_issue', 'update_issue']);

/** How people write a link type, mapped to the plugin's. */
const LINK_WORDS: Readonly<Record<string, (typeof LINK_TYPES)[number]>> = {
  linked: 'linked',
  link: 'linked',
  relates_to: 'linked',
  related: 'linked',
  relates: 'linked',
  links_to: 'linked',
  waiting_on: 'waiting_on',
  depends_on: 'waiting_on',
  is_blocked_by: 'waiting_on',
  blocked_by: 'waiting_on',
  blocking: 'blocking',
  blocks: 'blocking',
  dependency_of: 'blocking',
};

const PRIORITY_SCHEMA = {
  type: ['string', 'integer'],
  enum: [...PRIORITIES, 1, 2, 3, 4],
  description: 'urgent, high, normal or low (or 1-4, 1 = urgent)',
};

/** `descriptions`: each tool's description as the plugin lists it, to extend when metadata is missing. */
export function createClickUpEnricher(
  settings: ClickUpSettings,
  metadata: MetadataStore,
  descriptions: ReadonlyMap<string, string>,
): ToolEnricher {
  const several = settings.listIds.length > 1;

  function fitToLists(schema: ToolSchema, tool: string): void {
    const data = metadata.current();
    if (!data) {
      const why = metadata.failure() ? ` (${metadata.failure() ?? ''})` : '';
      schema.setDescription(
        `${descriptions.get(tool) ?? ''} ClickUp list metadata is not loaded yet${why}: statuses and custom fields are not listed, and custom fields cannot be set.`.trim(),
      );
      return;
    }
    const failed = data.failedLists ?? [];
    if (several && schema.param('list')) {
      schema.setEnum('list', [
        ...data.lists.map((list) => list.name),
        ...data.lists.map((list) => list.id),
        ...failed.map((list) => list.id),
      ]);
    }
    if (failed.length) {
      const which = failed.map((list) => `${list.id} (${list.reason})`).join('; ');
      schema.setDescription(
        `${descriptions.get(tool) ?? ''} The metadata of ClickUp list${failed.length > 1 ? 's' : ''} ${which} could not be loaded: statuses are not listed, and custom fields cannot be set there.`.trim(),
      );
    }
    // A failed list's statuses are unknown: an enum of the others' would refuse its own, so none is set.
    const statuses = [...new Set(data.lists.flatMap((list) => list.statuses.map((status) => status.status)))];
    if (!failed.length && statuses.length && schema.param('status')) schema.setEnum('status', statuses);
    if (!failed.length && statuses.length && schema.param('statuses')) schema.setEnum('statuses', statuses);
    if (!WRITES.has(tool)) return;
    for (const entry of fieldParams(data)) {
      const definition = paramSchema(entry.field) ?? {};
      const where =
        several && entry.lists.length < data.lists.length ? ` (lists: ${entry.lists.join(', ')})` : '';
      schema.addParam(entry.param, {
        ...definition,
        description: `${String(definition.description)}${where}`,
      });
    }
  }

  /** cf_* arguments → customFields: field id → the API's value; unknown to this list → refused. */
  function mapFields(tool: string, args: Record<string, unknown>): void {
    delete args.customFields;
    const data = metadata.current();
    const entries = fieldParams(data);
    const writes: Record<string, FieldWrite> = {};
    const listId =
      typeof args.list === 'string'
        ? (findList(data, args.list)?.id ?? args.list)
        : settings.listIds.length === 1
          ? settings.listIds[0]
          : undefined;
    for (const entry of entries) {
      if (!Object.hasOwn(args, entry.param)) continue;
      const given = args[entry.param];
      delete args[entry.param];
      if (tool === 'create_issue' && listId !== undefined && !entry.listIds.includes(listId)) {
        const unloaded = failedList(data, listId);
        if (unloaded)
          throw new PluginError(
            'invalid_input',
            `${entry.param}: the custom fields of list ${listId} could not be loaded (${unloaded.reason}), so none can be set there`,
          );
        throw notInList(entry, findList(data, listId)?.name ?? listId);
      }
      const members =
        data?.lists.filter((list) => entry.listIds.includes(list.id)).flatMap((list) => list.members) ?? [];
      writes[entry.field.id] = toFieldWrite(entry, given, members);
    }
    if (Object.keys(writes).length) args.customFields = writes;
  }

  const notInList = (entry: FieldParam, list: string) =>
    new PluginError(
      'invalid_input',
      `${entry.param}: list ${list} has no field "${entry.field.name}"; it is on ${entry.lists.join(', ')}`,
    );

  return {
    name: 'clickup',
    supportedCategories: () => ['issue_tracker'],
    enrichSchema(tool, schema) {
      const kept = KEPT[tool.name] ?? [];
      schema.removeParams([
        ...TRACKER_ONLY_FIELDS.filter((name) => !kept.includes(name)),
        ...(UNSUPPORTED[tool.name] ?? []),
      ]);
      if (schema.param('priority')) schema.addParam('priority', PRIORITY_SCHEMA);
      if (tool.name === 'get_issues') {
        schema.setEnum('sort', ['created', 'updated', 'due_date']);
        schema.setParamDescription('labels', 'only tasks with these tags');
        schema.setParamDescription(
          'assignee',
          'only tasks assigned to this user (id, name or email; see get_users), or "me" for the token\'s user',
        );
      }
      if (WRITES.has(tool.name)) schema.setParamDescription('labels', 'tag names');
      if (tool.name === 'link_issues') {
        schema.setEnum('link_type', [...LINK_TYPES]);
        schema.setDefault('link_type', 'linked');
        schema.setParamDescription(
          'link_type',
          'linked (a plain link), waiting_on (key waits on target_key) or blocking (key blocks target_key)',
        );
      }
      fitToLists(schema, tool.name);
    },
    transformArgs(tool, args) {
      canonicalizeTaskKey(args, 'key', settings.customTaskIds);
      canonicalizeTaskKey(args, 'target_key', settings.customTaskIds);
      if (typeof args.priority === 'string') args.priority = priorityNumber(args.priority);
      if (typeof args.list === 'string') args.list = findList(metadata.current(), args.list)?.id ?? args.list;
      if (tool.name === 'link_issues' && typeof args.link_type === 'string') {
        const word = args.link_type
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, '_');
        args.link_type = LINK_WORDS[word] ?? args.link_type;
      }
      if (WRITES.has(tool.name)) mapFields(tool.name, args);
    },
    valueModel: (tool) => trackerValueModel(tool, settings.apiHost),
    rateLimitHost: () => settings.apiHost,
    watch: (changed) => metadata.onChange(changed),
  };
}
