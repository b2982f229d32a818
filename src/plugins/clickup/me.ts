// The token's own user (GET /user), for "me" among get_issues' assignees; read once, since a token's user is fixed.
import { PluginError } from '../../contract/index.js';
import type { ClickUpUserJson } from './api-types.js';
import type { CallBounds, ClickUpClient } from './client.js';

export type WhoAmI = (bounds: CallBounds) => Promise<ClickUpUserJson>;

/** What the agent may write for the token's user. */
export const isMe = (value: unknown): boolean =>
  typeof value === 'string' && /^@?(me|myself)$/i.test(value.trim());

export function createWhoAmI(client: ClickUpClient): WhoAmI {
  // Only a success is kept: a failed or aborted read is the calling tool's failure, and the next call asks again.
  let known: ClickUpUserJson | undefined;
  return async (bounds) => {
    if (known) return known;
    const answer = await client.send<{ user?: ClickUpUserJson }>(
      { method: 'GET', path: '/user', target: "the token's user" },
      bounds,
    );
    if (typeof answer.user?.id !== 'number')
      throw new PluginError('unavailable', 'ClickUp did not say whose token this is (GET /user had no user)');
    known = answer.user;
    return known;
  };
}
