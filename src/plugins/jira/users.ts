// A user as the agent names one (an accountId or user name, a display name, an email) resolved to the id Jira's API
// takes: Cloud's accountId, Server / Data Center's user name, found through user search when it is not an id.
import { PluginError, type RequestContext } from '../../contract/index.js';
import type { JiraUserJson } from './issue-shape.js';
import { type ToolDeps } from './tool-io.js';

/** Cloud accountIds: 24 hex digits (older), or "557058:" and a UUID (newer). */
const ACCOUNT_ID = /^(?:[0-9a-f]{24}|\d+:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const SEARCH_SIZE = 50;

export type UserResolver = (value: string, param: string, ctx: RequestContext) => Promise<string>;

export function createUserResolver(deps: ToolDeps): UserResolver {
  const { client, settings } = deps;
  const cloud = settings.flavor === 'cloud';
  const idOf = (user: JiraUserJson) => (cloud ? user.accountId : user.name) ?? '';
  const describe = (user: JiraUserJson) =>
    `${user.displayName ?? idOf(user)} (${idOf(user)}${user.emailAddress ? `, ${user.emailAddress}` : ''})`;

  return async (value, param, ctx) => {
    const wanted = value.trim();
    // An accountId is used as it is: no request, and no chance of another user of the same name.
    if (cloud && ACCOUNT_ID.test(wanted)) return wanted;
    const found = await client.api<(JiraUserJson & { accountType?: string })[]>(
      `users matching "${wanted}"`,
      ctx,
      cloud
        ? { path: '/user/search', query: { query: wanted, maxResults: SEARCH_SIZE } }
        : { path: '/user/search', query: { username: wanted, maxResults: SEARCH_SIZE } },
    );
    // Apps and customers cannot be assignees or fill a user field.
    const users = found.filter((u) => (u.accountType ?? 'atlassian') === 'atlassian' && idOf(u) !== '');
    const same = (text: string | undefined) => text?.toLowerCase() === wanted.toLowerCase();
    // Server: a user name is an id, and wins over display names that happen to match it.
    const byName = cloud ? [] : users.filter((u) => same(u.name));
    const exact = byName.length ? byName : users.filter((u) => same(u.displayName) || same(u.emailAddress));
    // Cloud hides most emails, but searches by them: an email that finds one user found that user.
    const chosen =
      exact.length === 1
        ? exact[0]
        : exact.length === 0 && wanted.includes('@') && users.length === 1
          ? users[0]
          : undefined;
    if (chosen !== undefined) return idOf(chosen);
    const id = cloud ? 'accountId' : 'user name';
    if (exact.length > 1) {
      throw new PluginError(
        'invalid_input',
        `${param}: "${wanted}" matches several users: ${exact.map(describe).join('; ')}; give one's ${id}`,
      );
    }
    throw new PluginError(
      'invalid_input',
      `${param}: no user is "${wanted}"${users.length ? `; users found: ${users.map(describe).join('; ')}` : ''}; give an ${id}, a display name or an email (get_users searches)`,
    );
  };
}
