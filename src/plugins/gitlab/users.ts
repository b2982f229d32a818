// User names → GitLab user ids, which assignee_ids and reviewer_ids take; found once and remembered.
import { PluginError, type RequestContext } from '../../contract/index.js';
import type { GitLabClient } from './client.js';
import { request } from './failure.js';
import type { GitLabSettings } from './options.js';

export interface UserDirectory {
  /** The ids of `usernames`, in order; an unknown name fails the call, naming it. "@name" is accepted. */
  ids(usernames: readonly string[], param: string, ctx: RequestContext): Promise<number[]>;
}

export function createUserDirectory(client: GitLabClient, settings: GitLabSettings): UserDirectory {
  const known = new Map<string, number>();

  async function idOf(username: string, param: string, ctx: RequestContext): Promise<number> {
    const name = username.replace(/^@/, '');
    const cached = known.get(name.toLowerCase());
    if (cached !== undefined) return cached;
    const found = (await request(
      { provider: settings.providerName, target: `user "${name}"`, token: settings.token },
      ctx.signal,
      () => client.api(ctx.signal).users.all({ username: name, page: 1, perPage: 20 }),
    )) as unknown as { id: number; username: string }[];
    const user = found.find((candidate) => candidate.username.toLowerCase() === name.toLowerCase());
    if (user === undefined) {
      throw new PluginError(
        'invalid_input',
        `parameter "${param}": no user "${name}" on ${settings.providerName}; give GitLab user names`,
      );
    }
    known.set(name.toLowerCase(), user.id);
    return user.id;
  }

  return {
    ids: (usernames, param, ctx) => Promise.all(usernames.map((name) => idOf(name, param, ctx))),
  };
}
