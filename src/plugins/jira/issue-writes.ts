// The write tools of the jira plugin: create_issue, update_issue (fields, then the workflow transition), add_issue_comment.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { PluginError, type RequestContext } from '../../contract/index.js';
import {
  type Args,
  type ToolHandler,
  commentedResult,
  notAllowed,
  str,
  strings,
  writtenResult,
} from '../kit/index.js';
import {
  type JiraCommentJson,
  type JiraIssueJson,
  commentFromJira,
  issueFromJira,
  toJiraText,
} from './issue-shape.js';
import { refusedAField } from './failure.js';
import { takeSubtaskChoice, typeUnderParent } from './issue-types.js';
import { createUserResolver } from './users.js';
import { customParams } from './custom-params.js';
import { type ToolDeps, customFieldNames, keyArg } from './tool-io.js';
import {
  type TransitionJson,
  doTransition,
  transitionTo,
  transitionToState,
  transitionsOf,
} from './transitions.js';

type SprintResolver = (value: unknown, ctx: RequestContext) => Promise<{ id: number }>;

const CUSTOM_FIELD_ID = /^customfield_\d+$/;

export function createIssueWriteTools(deps: ToolDeps, resolveSprint: SprintResolver) {
  const { client, settings, metadata } = deps;
  const user = (name: string) => (settings.flavor === 'cloud' ? { accountId: name } : { name });

  const resolveUser = createUserResolver(deps);

  /** A custom field's kind and its cf_ parameter (for messages), when the metadata knows the field. */
  const customField = (id: string) => {
    const data = metadata.current();
    const param = data && customParams(data).find((p) => [...p.fields.values()].some((f) => f.id === id));
    return param && { kind: param.kind, param: param.param };
  };

  /**
   * A user field's value with each user the enricher left as the agent named it (`{ accountId }` on Cloud,
   * `{ name }` on Server) resolved to an id; other fields' values as they are.
   */
  async function withUsersResolved(id: string, value: unknown, ctx: RequestContext): Promise<unknown> {
    const field = customField(id);
    if (value === null || (field?.kind !== 'user' && field?.kind !== 'users')) return value;
    const one = async (entry: unknown) => {
      const named = (entry as Record<string, unknown> | null)?.[
        settings.flavor === 'cloud' ? 'accountId' : 'name'
      ];
      return typeof named === 'string' ? user(await resolveUser(named, field.param, ctx)) : entry;
    };
    if (!Array.isArray(value)) return one(value);
    // One after another: a site's rate limit is shared with everything else the token does.
    const resolved: unknown[] = [];
    for (const entry of value) resolved.push(await one(entry));
    return resolved;
  }

  /** The Jira `fields` of a create or update, from the unified parameters and the enricher's customFields. */
  async function issueFields(args: Args, ctx: RequestContext): Promise<Record<string, unknown>> {
    const fields: Record<string, unknown> = {};
    const special = metadata.current()?.special ?? {};
    if (typeof args.title === 'string') fields.summary = args.title;
    if (typeof args.body === 'string') fields.description = toJiraText(args.body, settings.flavor);
    const labels = strings(args.labels);
    if (labels) fields.labels = labels;
    const assignees = strings(args.assignees);
    if (assignees) {
      fields.assignee =
        assignees[0] === undefined ? null : user(await resolveUser(assignees[0], 'assignees', ctx));
    }
    if (str(args.priority)) fields.priority = { name: args.priority };
    if (str(args.type)) fields.issuetype = { name: args.type };
    // The unified milestone is the fix version; "" clears them.
    if (typeof args.milestone === 'string')
      fields.fixVersions = args.milestone === '' ? [] : [{ name: args.milestone }];
    const components = strings(args.components);
    if (components) fields.components = components.map((name) => ({ name }));
    if (typeof args.due_date === 'string') fields.duedate = args.due_date === '' ? null : args.due_date;
    if (str(args.parent)) fields.parent = { key: keyArg(deps, args.parent, 'parent') };
    if (str(args.epic) && str(args.parent) && !special.epicLink) {
      throw new PluginError(
        'invalid_input',
        'epic and parent both set the parent on this site (it has no Epic Link field); give one of them',
      );
    }
    if (str(args.epic)) {
      const epic = keyArg(deps, args.epic, 'epic');
      // Server's Epic Link takes the epic's key; Cloud (no Epic Link any more) makes the epic the parent.
      if (special.epicLink) fields[special.epicLink] = epic;
      else fields.parent = { key: epic };
    }
    if (typeof args.points === 'number' && special.points) fields[special.points] = args.points;
    if (args.sprint !== undefined && special.sprint)
      fields[special.sprint] = (await resolveSprint(args.sprint, ctx)).id;
    for (const [id, value] of Object.entries((args.customFields ?? {}) as Record<string, unknown>)) {
      if (!CUSTOM_FIELD_ID.test(id)) {
        throw new PluginError(
          'invalid_input',
          `customFields: "${id}" is not a field id; give ids such as "customfield_10042" (get_custom_fields lists them)`,
        );
      }
      fields[id] = await withUsersResolved(id, value, ctx);
    }
    return fields;
  }

  // At most one reload asked for by refusals at a time: many refused writes in a row start one, not one each.
  let reloading: Promise<void> | undefined;

  /**
   * A write Jira refuses with a 400 naming a field or an option may have met fields or options changed since the
   * last load: the metadata reloads in the background, so the schemas the agent reads next are current. Other
   * refusals (credentials, permissions, a plain bad value) say nothing of the metadata. The refusal goes to the agent.
   */
  async function refreshingOnRefusal<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } catch (error) {
      if (refusedAField(error) && reloading === undefined) {
        reloading = metadata.refresh().finally(() => {
          reloading = undefined;
        });
      }
      throw error;
    }
  }

  /** The issue as it now is, for the answer of a write. */
  const readBack = (key: string, ctx: RequestContext) =>
    client.api<JiraIssueJson>(`issue ${key}`, ctx, {
      path: `/issue/${encodeURIComponent(key)}`,
      query: { fields: 'summary,status,assignee,reporter,labels,priority,issuetype,parent,created,updated' },
    });

  async function createIssue(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    // With several projects the agent must say which: the plugin never picks one for it.
    const project =
      str(args.projectId)?.toUpperCase() ?? (settings.projects.length === 1 ? settings.projects[0] : '');
    if (project === undefined || !settings.projects.includes(project)) {
      throw notAllowed('projectId', project, settings.projects);
    }
    const subtaskChoice = takeSubtaskChoice(args);
    const parent = str(args.parent) === undefined ? undefined : keyArg(deps, args.parent, 'parent');
    // Under a parent the plugin decides the type from the parent's own: the schema lists only standard types.
    const placement =
      parent === undefined
        ? undefined
        : await typeUnderParent(deps, project, parent, args, subtaskChoice, ctx);
    const fields: Record<string, unknown> = {
      project: { key: project },
      issuetype: { name: 'Task' },
      ...(await issueFields(args, ctx)),
    };
    if (placement !== undefined) {
      fields.issuetype = { name: placement.type };
      const epicLink = metadata.current()?.special.epicLink;
      // Server / Data Center puts an issue under its epic with Epic Link; `parent` there is for sub-tasks only.
      if (placement.epic && epicLink !== undefined && fields[epicLink] === undefined) {
        delete fields.parent;
        fields[epicLink] = parent;
      }
    }
    const created = await refreshingOnRefusal(
      client.api<{ key: string }>(`a new issue in ${project}`, ctx, {
        method: 'POST',
        path: '/issue',
        body: { fields },
      }),
    );
    const raw = await readBack(created.key, ctx);
    return writtenResult('Created', {
      kind: 'issue',
      item: issueFromJira(raw, settings.baseUrl, customFieldNames(deps)),
    });
  }

  async function updateIssue(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const key = keyArg(deps, args.key);
    const fields = await issueFields(args, ctx);
    const status = str(args.status);
    const state = args.state === 'open' || args.state === 'closed' ? args.state : undefined;
    if (Object.keys(fields).length === 0 && status === undefined && state === undefined) {
      throw new PluginError('invalid_input', `nothing to change on issue ${key}: give at least one field`);
    }
    // The transition is found first, so a status the issue cannot reach changes nothing at all.
    let transition: TransitionJson | undefined;
    if (status !== undefined || state !== undefined) {
      const transitions = await transitionsOf(deps, key, ctx);
      transition =
        status !== undefined
          ? transitionTo(transitions, status, key)
          : transitionToState(transitions, state ?? 'closed', key);
    }
    if (Object.keys(fields).length) {
      await refreshingOnRefusal(
        client.api(`issue ${key}`, ctx, {
          method: 'PUT',
          path: `/issue/${encodeURIComponent(key)}`,
          body: { fields },
        }),
      );
    }
    if (transition) await doTransition(deps, key, transition, ctx);
    const raw = await readBack(key, ctx);
    return writtenResult('Updated', {
      kind: 'issue',
      item: issueFromJira(raw, settings.baseUrl, customFieldNames(deps)),
    });
  }

  async function addIssueComment(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const key = keyArg(deps, args.key);
    const raw = await client.api<JiraCommentJson>(`issue ${key}`, ctx, {
      method: 'POST',
      path: `/issue/${encodeURIComponent(key)}/comment`,
      body: { body: toJiraText(String(args.body), settings.flavor) },
    });
    return commentedResult(key, commentFromJira(raw, key, settings.baseUrl));
  }

  return {
    create_issue: createIssue,
    update_issue: updateIssue,
    add_issue_comment: addIssueComment,
  } satisfies Record<string, ToolHandler>;
}
