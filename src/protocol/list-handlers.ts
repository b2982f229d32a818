// The list requests of a bound server (tools, resources, resource templates, prompts): each waits for the plugins'
// first catalogs, is redacted, carries the lists' caching hints to a 2026-07-28 client, and under [auth.scopes]
// leaves out what the caller's token may not use.
import type { ServerContext, Tool } from '@modelcontextprotocol/server';
import type { CatalogList } from '../contract/index.js';
import { stricterHints, toCacheHint } from './cache-hints.js';
import {
  type CatalogCheck,
  type ScopeCheck,
  requestCatalogCheck,
  requestScopeCheck,
} from './request-auth.js';
import type { ServerScope } from './server-scope.js';
import type { BuiltinResource } from './server-types.js';
import { withoutTaskSupport } from './tasks/index.js';

export function registerListHandlers(
  scope: ServerScope,
  builtins: ReadonlyMap<string, BuiltinResource>,
): void {
  const { server, modern, options, toolsFor } = scope;
  const { host } = options;

  /**
   * A modern list carries the configured hints of the lists, made stricter by those the plugins' sources gave
   * their own lists (an upstream's tools/list on the 2026-07-28 revision); a 2025 list carries none.
   */
  const withListHints = <R extends object>(list: CatalogList, result: R): R =>
    modern
      ? { ...result, ...toCacheHint(stricterHints(options.listHints, host.reportedHints(list))) }
      : result;

  /**
   * A list handler that first waits for the plugins still loading their first catalogs (an upstream server
   * connecting, bounded by its start deadline), so a client that lists once sees what `foresight tools` shows.
   * Once they have, the flag is all a listing reads: no promise is made.
   */
  const listing =
    <A extends unknown[], R>(list: (...args: A) => R) =>
    async (...args: A): Promise<R> => {
      if (!host.catalogsSettled) await host.settle();
      return list(...args);
    };

  // The plugins' JSON Schemas pass through unchanged; the SDK types their property schemas as JSON values.
  // A 2025 client gets no tasks, so it is not told which tools have them (the 2026-07-28 codec drops the field).
  // Lists are redacted like results: an upstream server or a provider's metadata may echo a credential into a
  // description. The tool list is the same array until it is rebuilt, so its redacted copy is made once.
  server.setRequestHandler(
    'tools/list',
    listing((_request: unknown, ctx: ServerContext) => {
      const check = requestScopeCheck(ctx);
      const all = options.redactListing(toolsFor(ctx).listTools());
      if (!check)
        return withListHints('tools', { tools: (modern ? all : withoutTaskSupport(all)) as Tool[] });
      // Under [auth.scopes] a tool the token may not call is not listed to it, so the list is this caller's own.
      const listed = all.filter((tool) => check(tool.name).missing.length === 0);
      const result = withListHints('tools', {
        tools: (modern ? listed : withoutTaskSupport(listed)) as Tool[],
      });
      return modern ? { ...result, cacheScope: 'private' as const } : result;
    }),
  );

  /**
   * Under [auth.scopes] a plugin's resources and prompts the token may not read are left out of its lists, which
   * are then this caller's own (`cacheScope: "private"` for a 2026-07-28 client, as for tools/list).
   */
  const onlyReadable = <T>(entries: T[], check: ((entry: T) => ScopeCheck) | undefined): T[] =>
    check ? entries.filter((entry) => check(entry).missing.length === 0) : entries;
  const ownList = <R extends object>(check: CatalogCheck | undefined, result: R): R =>
    check && modern ? { ...result, cacheScope: 'private' as const } : result;

  // A prefix-less plugin (another Foresight mounted as an upstream) may list one of these URIs too: ours win.
  server.setRequestHandler(
    'resources/list',
    listing((_request: unknown, ctx: ServerContext) => {
      const check = requestCatalogCheck(ctx);
      const plugins = host.listResources().filter((resource) => !builtins.has(resource.uri));
      return ownList(
        check,
        withListHints('resources', {
          resources: [
            ...[...builtins.values()].map((entry) => entry.resource),
            ...options.redactResult(
              onlyReadable(plugins, check && ((resource) => check.resource(resource.uri))),
            ),
          ],
        }),
      );
    }),
  );
  server.setRequestHandler(
    'resources/templates/list',
    listing((_request: unknown, ctx: ServerContext) => {
      const check = requestCatalogCheck(ctx);
      const templates = onlyReadable(
        host.listResourceTemplates(),
        check && ((template) => check.resource(template.uriTemplate)),
      );
      return ownList(
        check,
        withListHints('resourceTemplates', { resourceTemplates: options.redactResult(templates) }),
      );
    }),
  );
  server.setRequestHandler(
    'prompts/list',
    listing((_request: unknown, ctx: ServerContext) => {
      const check = requestCatalogCheck(ctx);
      const prompts = onlyReadable(host.listPrompts(), check && ((prompt) => check.prompt(prompt.name)));
      return ownList(check, withListHints('prompts', { prompts: options.redactResult(prompts) }));
    }),
  );
}
