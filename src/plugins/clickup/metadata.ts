// Each configured list's statuses, custom fields and members, loaded in the background and kept fresh: the
// enums and typed parameters of the schemas. Until a first load succeeds the tools stay generic.
import type { Logger } from '../../host/index.js';
import type { ClickUpFieldJson, ClickUpListJson, ClickUpStatusJson, ClickUpUserJson } from './api-types.js';
import { type ClickUpClient, segment } from './client.js';
import type { ClickUpSettings } from './options.js';
import { type RefreshingMetadata, createRefreshingMetadata } from '../kit/index.js';

export interface ListMetadata {
  id: string;
  name: string;
  statuses: ClickUpStatusJson[];
  fields: ClickUpFieldJson[];
  members: ClickUpUserJson[];
}

export interface WorkspaceMetadata {
  /** In the configured order. */
  lists: ListMetadata[];
  /** Everyone in the workspace (GET /team), when team_id is configured; else empty. */
  workspaceMembers: ClickUpUserJson[];
}

export type MetadataStore = RefreshingMetadata<WorkspaceMetadata>;

/** What the schemas show: members appear in none, so a new colleague does not rebuild the tool list. */
const fingerprint = (data: WorkspaceMetadata) =>
  JSON.stringify(data.lists.map(({ members: _members, ...shown }) => shown));

/** GET /team answers every workspace the token may see, each with `members: [{ user }]`. */
interface TeamsJson {
  teams?: { id: string; members?: { user?: ClickUpUserJson }[] }[];
}

export function createMetadataStore(
  client: ClickUpClient,
  settings: ClickUpSettings,
  logger: Logger,
): MetadataStore {
  const loadList = async (id: string, bounds: { signal: AbortSignal }): Promise<ListMetadata> => {
    const path = `/list/${segment(id)}`;
    const [list, fields, members] = await Promise.all([
      client.send<ClickUpListJson>({ method: 'GET', path, target: `list ${id}` }, bounds),
      client.send<{ fields?: ClickUpFieldJson[] }>(
        { method: 'GET', path: `${path}/field`, target: `custom fields of list ${id}` },
        bounds,
      ),
      client.send<{ members?: ClickUpUserJson[] }>(
        { method: 'GET', path: `${path}/member`, target: `members of list ${id}` },
        bounds,
      ),
    ]);
    return {
      id,
      name: list.name,
      statuses: [...(list.statuses ?? [])].sort((a, b) => (a.orderindex ?? 0) - (b.orderindex ?? 0)),
      // Values belong to tasks, not to the definitions: keep them out of the fingerprint.
      fields: (fields.fields ?? []).map(({ value: _value, ...field }) => field),
      members: members.members ?? [],
    };
  };

  const loadWorkspaceMembers = async (bounds: { signal: AbortSignal }): Promise<ClickUpUserJson[]> => {
    if (settings.teamId === undefined) return [];
    const answer = await client.send<TeamsJson>(
      { method: 'GET', path: '/team', target: 'the workspaces' },
      bounds,
    );
    const team = answer.teams?.find((candidate) => String(candidate.id) === settings.teamId);
    return (team?.members ?? []).flatMap((member) => (member.user ? [member.user] : []));
  };

  return createRefreshingMetadata(
    {
      what: `statuses and custom fields of ClickUp lists ${settings.listIds.join(', ')}`,
      ttlMs: settings.metadataTtlMs,
      fingerprint,
      async load(signal) {
        const [lists, workspaceMembers] = await Promise.all([
          Promise.all(settings.listIds.map((id) => loadList(id, { signal }))),
          loadWorkspaceMembers({ signal }),
        ]);
        return { lists, workspaceMembers };
      },
    },
    logger,
  );
}

/** The list a name or id names, among the loaded ones. */
export function findList(data: WorkspaceMetadata | undefined, nameOrId: string): ListMetadata | undefined {
  return (
    data?.lists.find((list) => list.id === nameOrId) ?? data?.lists.find((list) => list.name === nameOrId)
  );
}
