// Workflow transitions: a status change in Jira is a transition, found by the status it leads to or by its own name.
import { PluginError, type RequestContext } from '../../contract/index.js';
import { type ToolDeps } from './tool-io.js';

export interface TransitionJson {
  id: string;
  name: string;
  to?: { name?: string; statusCategory?: { key?: string } };
}

/** The transitions the issue can take now. */
export async function transitionsOf(
  deps: ToolDeps,
  key: string,
  ctx: RequestContext,
): Promise<TransitionJson[]> {
  const answer = await deps.client.api<{ transitions?: TransitionJson[] }>(
    `transitions of issue ${key}`,
    ctx,
    {
      path: `/issue/${encodeURIComponent(key)}/transitions`,
    },
  );
  return answer.transitions ?? [];
}

const reachable = (transitions: readonly TransitionJson[]): string =>
  transitions.length === 0
    ? 'none (the workflow has no transition from its status that this account may take)'
    : transitions.map((t) => `${t.to?.name ?? '?'} (transition "${t.name}")`).join(', ');

/**
 * The transition to `status`: the one whose target status has that name, else the one so named (any case).
 * None: an invalid_input error listing the statuses the issue can reach now.
 */
export function transitionTo(
  transitions: readonly TransitionJson[],
  status: string,
  key: string,
): TransitionJson {
  const wanted = status.trim().toLowerCase();
  const found =
    transitions.find((t) => t.to?.name?.toLowerCase() === wanted) ??
    transitions.find((t) => t.name.toLowerCase() === wanted);
  if (found) return found;
  throw new PluginError(
    'invalid_input',
    `status: issue ${key} cannot move to ${JSON.stringify(status)} now; reachable statuses: ${reachable(transitions)}`,
  );
}

/** state "closed": a transition into a done status; "open": one out of it (to-do first). */
export function transitionToState(
  transitions: readonly TransitionJson[],
  state: 'open' | 'closed',
  key: string,
): TransitionJson {
  const category = (t: TransitionJson) => t.to?.statusCategory?.key;
  const found =
    state === 'closed'
      ? transitions.find((t) => category(t) === 'done')
      : (transitions.find((t) => category(t) === 'new') ??
        transitions.find((t) => category(t) === 'indeterminate'));
  if (found) return found;
  throw new PluginError(
    'invalid_input',
    `state: issue ${key} has no transition to ${state === 'closed' ? 'a done' : 'an open'} status now; reachable statuses: ${reachable(transitions)}`,
  );
}

export async function doTransition(
  deps: ToolDeps,
  key: string,
  transition: TransitionJson,
  ctx: RequestContext,
) {
  await deps.client.api(`issue ${key}`, ctx, {
    method: 'POST',
    path: `/issue/${encodeURIComponent(key)}/transitions`,
    body: { transition: { id: transition.id } },
  });
}
