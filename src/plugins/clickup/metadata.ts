// Each configured list's statuses, custom fields and members, loaded in the background and kept fresh: the
// enums and typed parameters of the schemas. Until a first load succeeds the tools stay generic.
import type { Logger } from '../../host/index.js';
import type { ClickUpFieldJson, ClickUpListJson, ClickUpStatusJson, ClickUpUserJson } from './api-types.js';
import { type ClickUpClient, segment } from './client.js';
import type { ClickUpSettings } from './options.js';

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

export interface MetadataStore {
  /** Undefined until the first load succeeds. */
  current(): WorkspaceMetadata | undefined;
  /** Why the last load failed, while the schemas are generic because of it. */
  failure(): string | undefined;
  /** Loads now and then every TTL; never throws (failures are logged and retried at the next tick). */
  start(): void;
  /** Loads now, outside the timer; resolves when done (a failure is kept, not thrown). */
  refresh(): Promise<void>;
  stop(): Promise<void>;
  /** Called after a load that changed what the schemas show. */
  onChange(listener: () => void): void;
}

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
  let data: WorkspaceMetadata | undefined;
  let lastFailure: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let loading: Promise<void> = Promise.resolve();
  const stopping = new AbortController();
  const listeners: (() => void)[] = [];
  const bounds = { signal: stopping.signal };

  const loadList = async (id: string): Promise<ListMetadata> => {
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

  const loadWorkspaceMembers = async (): Promise<ClickUpUserJson[]> => {
    if (settings.teamId === undefined) return [];
    const answer = await client.send<TeamsJson>(
      { method: 'GET', path: '/team', target: 'the workspaces' },
      bounds,
    );
    const team = answer.teams?.find((candidate) => String(candidate.id) === settings.teamId);
    return (team?.members ?? []).flatMap((member) => (member.user ? [member.user] : []));
  };

  const load = async () => {
    try {
      const [lists, workspaceMembers] = await Promise.all([
        Promise.all(settings.listIds.map(loadList)),
        loadWorkspaceMembers(),
      ]);
      const next: WorkspaceMetadata = { lists, workspaceMembers };
      const changed = data === undefined || fingerprint(data) !== fingerprint(next);
      data = next;
      lastFailure = undefined;
      if (changed && !stopped) for (const listener of listeners) listener();
    } catch (error) {
      if (stopped) return;
      const previous = lastFailure;
      lastFailure = error instanceof Error ? error.message : String(error);
      // Generic schemas say why in their descriptions: a new reason is a change of what they show.
      if (data === undefined && lastFailure !== previous) for (const listener of listeners) listener();
      logger.warn(
        { err: lastFailure },
        `cannot load statuses and custom fields of ClickUp lists ${settings.listIds.join(', ')}; schemas stay generic until the next try`,
      );
    }
  };

  return {
    current: () => data,
    failure: () => (data === undefined ? lastFailure : undefined),
    start() {
      const tick = () => {
        loading = load().finally(() => {
          if (!stopped) timer = setTimeout(tick, settings.metadataTtlMs).unref();
        });
      };
      tick();
    },
    refresh() {
      loading = loading.then(load);
      return loading;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      stopping.abort();
      await loading;
    },
    onChange: (listener) => void listeners.push(listener),
  };
}

/** The list a name or id names, among the loaded ones. */
export function findList(data: WorkspaceMetadata | undefined, nameOrId: string): ListMetadata | undefined {
  return (
    data?.lists.find((list) => list.id === nameOrId) ?? data?.lists.find((list) => list.name === nameOrId)
  );
}
