// One list's statuses, custom fields or members read straight from ClickUp: what the background metadata load
// is made of, and what a metadata tool reads for itself, under its own call's bounds, while that load is missing.
import type { ClickUpFieldJson, ClickUpListJson, ClickUpStatusJson, ClickUpUserJson } from './api-types.js';
import { type CallBounds, type ClickUpClient, segment } from './client.js';

/** GET /list/{id}: its name and statuses, in their board order. */
export async function readList(
  client: ClickUpClient,
  id: string,
  bounds: CallBounds,
): Promise<{ id: string; name: string; statuses: ClickUpStatusJson[] }> {
  const list = await client.send<ClickUpListJson>(
    { method: 'GET', path: `/list/${segment(id)}`, target: `list ${id}` },
    bounds,
  );
  const statuses = [...(list.statuses ?? [])].sort((a, b) => (a.orderindex ?? 0) - (b.orderindex ?? 0));
  return { id, name: list.name, statuses };
}

/** GET /list/{id}/field: the definitions (a value belongs to a task, so none is kept). */
export async function readFields(
  client: ClickUpClient,
  id: string,
  bounds: CallBounds,
): Promise<ClickUpFieldJson[]> {
  const answer = await client.send<{ fields?: ClickUpFieldJson[] }>(
    { method: 'GET', path: `/list/${segment(id)}/field`, target: `custom fields of list ${id}` },
    bounds,
  );
  return (answer.fields ?? []).map(({ value: _value, ...field }) => field);
}

/** GET /list/{id}/member */
export async function readMembers(
  client: ClickUpClient,
  id: string,
  bounds: CallBounds,
): Promise<ClickUpUserJson[]> {
  const answer = await client.send<{ members?: ClickUpUserJson[] }>(
    { method: 'GET', path: `/list/${segment(id)}/member`, target: `members of list ${id}` },
    bounds,
  );
  return answer.members ?? [];
}

/** GET /team answers every workspace the token may see, each with `members: [{ user }]`. */
interface TeamsJson {
  teams?: { id: string; members?: { user?: ClickUpUserJson }[] }[];
}

/** Everyone in the workspace `teamId`; empty without one. */
export async function readWorkspaceMembers(
  client: ClickUpClient,
  teamId: string | undefined,
  bounds: CallBounds,
): Promise<ClickUpUserJson[]> {
  if (teamId === undefined) return [];
  const answer = await client.send<TeamsJson>(
    { method: 'GET', path: '/team', target: 'the workspaces' },
    bounds,
  );
  const team = answer.teams?.find((candidate) => String(candidate.id) === teamId);
  return (team?.members ?? []).flatMap((member) => (member.user ? [member.user] : []));
}
