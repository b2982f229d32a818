// The tracker metadata tools of the jira plugin: get_available_statuses, get_custom_fields, get_users.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { FieldShape, RequestContext, StatusShape, UserShape } from '../../contract/index.js';
import { DEFAULT_LIMIT, type Args, type ToolHandler, int, shapedResult, str } from '../kit/index.js';
import { customParams } from './custom-params.js';
import { allowedNames, kindWords } from './custom-values.js';
import { kindOf, type JiraFieldSchema } from './fields.js';
import type { JiraUserJson } from './issue-shape.js';
import { type ToolDeps, keyArg } from './tool-io.js';
import { transitionsOf } from './transitions.js';

type StatusListJson = { name: string; statuses?: { name: string; statusCategory?: { key?: string } }[] }[];

export function createTrackerTools(deps: ToolDeps) {
  const { client, settings, metadata } = deps;
  const multi = settings.projects.length > 1;

  async function projectStatuses(ctx: RequestContext): Promise<StatusShape[]> {
    const items: StatusShape[] = [];
    for (const project of settings.projects) {
      const known = metadata.project(project)?.statuses;
      const statuses =
        known ??
        (
          await client.api<StatusListJson>(`the statuses of project ${project}`, ctx, {
            path: `/project/${encodeURIComponent(project)}/statuses`,
          })
        ).flatMap((list) =>
          (list.statuses ?? []).map((s) => ({
            name: s.name,
            category: s.statusCategory?.key,
            issueTypes: [list.name],
          })),
        );
      const merged = new Map<string, { category?: string; types: Set<string> }>();
      for (const status of statuses) {
        const entry = merged.get(status.name) ?? {
          ...(status.category ? { category: status.category } : {}),
          types: new Set(),
        };
        for (const type of status.issueTypes) entry.types.add(type);
        merged.set(status.name, entry);
      }
      for (const [name, { category, types }] of merged) {
        items.push({
          name,
          ...(category ? { category } : {}),
          scope: `${project}: ${[...types].join(', ')}`,
        });
      }
    }
    return items;
  }

  async function getAvailableStatuses(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    if (args.refresh === true) await metadata.refresh(ctx.signal);
    if (args.key === undefined)
      return shapedResult({ kind: 'status_list', items: await projectStatuses(ctx) });
    const key = keyArg(deps, args.key);
    const items = (await transitionsOf(deps, key, ctx)).map((t) => ({
      name: t.to?.name ?? t.name,
      ...(t.to?.statusCategory?.key ? { category: t.to.statusCategory.key } : {}),
      transition: t.name,
    }));
    return shapedResult({ kind: 'status_list', items });
  }

  async function getCustomFields(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    if (args.refresh === true) await metadata.refresh(ctx.signal);
    const data = metadata.current();
    if (data === undefined) {
      // Without project metadata: every custom field of the site, by id, without parameters or options.
      const fields = await client.api<
        { id: string; name: string; custom?: boolean; schema?: JiraFieldSchema }[]
      >('the fields', ctx, { path: '/field' });
      const items: FieldShape[] = fields
        .filter((f) => f.custom === true)
        .map((f) => ({ id: f.id, name: f.name, type: kindOf(f.schema) ?? f.schema?.type ?? 'unknown' }));
      return shapedResult({ kind: 'field_list', items });
    }
    const items: FieldShape[] = customParams(data).flatMap((param) =>
      [...param.fields].map(([project, field]) => {
        const options = allowedNames(field.kind, field.options ?? []);
        return {
          id: field.id,
          name: field.name,
          type: field.kind,
          param: param.param,
          ...(options.length ? { options } : {}),
          ...(field.requiredFor.length ? { required: true } : {}),
          scope: `${multi ? `${project}: ` : ''}${field.issueTypes.join(', ')}${field.requiredFor.length ? ` (required for ${field.requiredFor.join(', ')})` : ''}; ${kindWords(field.kind, settings.flavor)}`,
        };
      }),
    );
    return shapedResult({ kind: 'field_list', items });
  }

  async function getUsers(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const offset = int(args.offset, 0);
    const limit = int(args.limit, DEFAULT_LIMIT);
    const search = str(args.search);
    const cloud = settings.flavor === 'cloud';
    // Cloud finds by `query` (or lists everyone); Server by `username`, where "." matches every user.
    const request = cloud
      ? {
          path: search ? '/user/search' : '/users/search',
          query: { ...(search ? { query: search } : {}), startAt: offset, maxResults: limit },
        }
      : { path: '/user/search', query: { username: search ?? '.', startAt: offset, maxResults: limit } };
    const users = await client.api<(JiraUserJson & { accountType?: string })[]>('users', ctx, request);
    const items: UserShape[] = users
      // Apps and customers cannot be assignees.
      .filter((u) => u.accountType === undefined || u.accountType === 'atlassian')
      .map((u) => ({
        id: (cloud ? u.accountId : u.name) ?? '',
        name: u.displayName ?? u.name ?? '',
        ...(!cloud && u.name ? { username: u.name } : {}),
        ...(u.emailAddress ? { email: u.emailAddress } : {}),
        ...(u.active === undefined ? {} : { active: u.active }),
      }));
    return shapedResult({ kind: 'user_list', items, page: { offset, limit } });
  }

  return {
    get_available_statuses: getAvailableStatuses,
    get_custom_fields: getCustomFields,
    get_users: getUsers,
  } satisfies Record<string, ToolHandler>;
}
