// The call requests of a bound server (tools/call, resources/read, prompts/get, completion/complete): each counted
// against the client's rate, run in an admission slot, routed through the plugin host, redacted and mapped to the
// wire; a tool call of a 2026-07-28 client may become a task.
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/server';
import { type CacheHint, errors, isForesightError } from '../contract/index.js';
import { type CacheHints, PRIVATE_UNCACHED, stricterHints, toCacheHint } from './cache-hints.js';
import { envelopeOf } from './caller.js';
import type { ServerScope } from './server-scope.js';
import type { BuiltinResource } from './server-types.js';
import { isCreateTaskResult, registerTaskMethods, taskEscalation } from './tasks/index.js';
import { RESOURCE_NOT_FOUND, toolCallFailure } from './wire-errors.js';

export function registerCallHandlers(
  scope: ServerScope,
  builtins: ReadonlyMap<string, BuiltinResource>,
): void {
  const {
    server,
    era,
    modern,
    connection,
    options,
    client,
    toolsFor,
    withInput,
    countCall,
    slotLater,
    guard,
  } = scope;
  const { host } = options;
  const tasks = modern ? options.tasks : undefined;

  /**
   * Runs a tool call made while plugins still load their first catalogs (an upstream connecting): one that finds
   * no such tool runs again once they have, so a client that calls a tool it knows without listing first finds
   * it, as the first listing would have. Calls made once they have settled do not come here.
   */
  const whileSettling = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (!isForesightError(error) || error.code !== errors.toolNotFound.code) throw error;
      await host.settle();
      return call();
    }
  };
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const tools = toolsFor(ctx);
    try {
      const escalation =
        tasks &&
        taskEscalation(
          tasks,
          { tool: name, principal: connection.principal, capabilities: envelopeOf(ctx).clientCapabilities },
          options,
        );
      countCall(ctx);
      const release = options.admission.tryAdmit(client) ?? (await slotLater(ctx));
      let result;
      try {
        result = await withInput(
          ctx,
          { method: 'tools/call', name, args: args ?? {} },
          (env) =>
            host.catalogsSettled
              ? tools.callTool(name, args ?? {}, env)
              : whileSettling(() => tools.callTool(name, args ?? {}, env)),
          escalation,
        );
      } finally {
        release();
      }
      // The SDK's tools/call result type has no CreateTaskResult; its 2026-07-28 codec passes resultType "task".
      if (isCreateTaskResult(result)) return result as unknown as CallToolResult;
      return options.redactResult(result as CallToolResult);
    } catch (error) {
      return toolCallFailure(error, name, options, era);
    }
  });
  if (tasks) registerTaskMethods(server, tasks.store, connection.principal, options);

  /**
   * A modern read result carries its plugin's configured caching hints, made stricter by those its source gave in
   * the result itself (a 2026-07-28 upstream's); a 2025 result carries none, whatever the source sent.
   */
  const withReadHints = (
    uri: string,
    result: ReadResourceResult,
    configured: CacheHints | undefined,
  ): ReadResourceResult => {
    const { ttlMs, cacheScope, ...rest } = result;
    if (!modern) return rest;
    const owner = configured ?? options.cacheHints(host.ownerOfUri(uri) ?? '') ?? PRIVATE_UNCACHED;
    return { ...rest, ...toCacheHint(stricterHints(owner, [{ ttlMs, cacheScope } as CacheHint])) };
  };
  server.setRequestHandler('resources/read', (request, ctx) => {
    const { uri } = request.params;
    return guard(
      `resource ${uri}`,
      async () => {
        const builtin = builtins.get(uri);
        // Foresight's own resources describe this process as it runs: fresh each time, never shared.
        if (builtin) return withReadHints(uri, builtin.read(connection.principal), PRIVATE_UNCACHED);
        countCall(ctx);
        const release = options.admission.tryAdmit(client) ?? (await slotLater(ctx));
        let result;
        try {
          result = await withInput(ctx, { method: 'resources/read', name: uri, args: {} }, (env) =>
            host.readResource(uri, env),
          );
        } finally {
          release();
        }
        if ('resultType' in result) return result;
        return withReadHints(uri, options.redactResult(result), undefined);
      },
      RESOURCE_NOT_FOUND,
    );
  });

  server.setRequestHandler('prompts/get', (request, ctx) => {
    const { name, arguments: args } = request.params;
    return guard(`prompt "${name}"`, async () => {
      countCall(ctx);
      const release = options.admission.tryAdmit(client) ?? (await slotLater(ctx));
      let result;
      try {
        result = await withInput(ctx, { method: 'prompts/get', name, args: args ?? {} }, (env) =>
          host.getPrompt(name, args, env),
        );
      } finally {
        release();
      }
      return 'resultType' in result ? result : options.redactResult(result);
    });
  });
  server.setRequestHandler('completion/complete', (request, ctx) =>
    guard('completion', async () => {
      const release = options.admission.tryAdmit(client) ?? (await slotLater(ctx));
      try {
        return await host.complete(request.params, scope.plainEnv(ctx));
      } finally {
        release();
      }
    }),
  );
}
