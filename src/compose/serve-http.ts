// The host on Streamable HTTP: authentication checked against the address, tool scopes resolved once the plugins
// have listed their tools, the listener wired to the host's servers, observers and operations.
import { scopeRefusalRecord } from '../audit/index.js';
import { type ForesightConfig, registerBasicCredential, registerSecret } from '../config/index.js';
import { errors, type Logger } from '../contract/index.js';
import type { ToolPipeline } from '../enrich/index.js';
import type { PluginHost } from '../host/index.js';
import type { HostOps } from '../ops/index.js';
import type { Planner } from '../planner/index.js';
import {
  type BuiltinResource,
  type HttpServing,
  type OAuthResourceOptions,
  basicCredentialParts,
  checkExposure,
  serveHttp,
} from '../protocol/index.js';
import { createCatalogScopeGuard, resolveToolScopes, scopesNamed } from '../tool-scopes.js';
import type { HttpOptions, OAuthOptions } from './host-types.js';
import type { ObservedCalls } from './observed-calls.js';
import type { CreateServer } from './server-factory.js';
import type { ServerState } from './server-state.js';

/** What an HTTP listener of the host is wired to. */
export interface HttpParts {
  config: ForesightConfig | undefined;
  logger: Logger;
  plugins: PluginHost;
  tools: ToolPipeline;
  planner: Planner;
  state: ServerState;
  createServer: CreateServer;
  observer: ObservedCalls | undefined;
  pluginOf(tool: string): string | undefined;
  builtinResources: readonly BuiltinResource[];
  ops: HostOps;
  /** Starts the host if needed. */
  start(): Promise<void>;
  /** Where the listener's close is kept for the host's. */
  closers: Set<() => Promise<void>>;
}

/** What the resource server takes: unless the config lists them, the metadata names every scope tools need. */
function resourceOptions({ toolScopes, ...oauth }: OAuthOptions): OAuthResourceOptions {
  if (!toolScopes?.length || oauth.scopesSupported !== undefined) return oauth;
  return { ...oauth, scopesSupported: scopesNamed(toolScopes) };
}

export async function serveHostHttp(http: HttpOptions, parts: HttpParts): Promise<HttpServing> {
  const { config, logger, plugins, tools, planner, state, observer, pluginOf } = parts;
  const address = { host: http.host ?? '127.0.0.1', port: http.port };
  if (http.authToken !== undefined && http.oauth !== undefined)
    throw errors.configInvalid(
      'serveHttp',
      'authToken and oauth are two ways to authenticate clients: set one',
    );
  const exposure = checkExposure(
    address,
    {
      authenticated: http.authToken !== undefined || http.oauth !== undefined,
      allowUnauthenticated: http.allowUnauthenticated ?? false,
    },
    { where: 'serveHttp', auth: 'authToken', allow: 'allowUnauthenticated: true' },
  );
  if (http.oauth?.introspection) {
    // The client secret, and the Basic credential it travels in, never reach a log or an answer.
    const { clientId, clientSecret } = http.oauth.introspection;
    const credential = basicCredentialParts(clientId, clientSecret);
    registerSecret(clientSecret);
    registerBasicCredential(credential.user, credential.secret);
  }
  await parts.start();
  const toolScopes = http.oauth?.toolScopes;
  // Checked once the plugins have listed their tools: a glob may name an upstream's.
  if (toolScopes?.length) await plugins.settle();
  const scopeGuard = toolScopes?.length
    ? resolveToolScopes(toolScopes, {
        file: config?.file,
        tables: config?.plugins ?? [],
        mounted: plugins.mountedPlugins(),
        listed: new Set(tools.listTools().map((tool) => tool.name)),
        modelOf: (tool) => planner.modelOf(tool),
        logger,
      })
    : undefined;
  const serving = await serveHttp({
    host: address.host,
    port: address.port,
    path: http.path,
    allowedHosts: http.allowedHosts,
    allowedOrigins: http.allowedOrigins,
    authToken: http.authToken,
    ...(http.oauth === undefined ? {} : { oauth: resourceOptions(http.oauth) }),
    ...(scopeGuard && toolScopes
      ? {
          scopeGuard,
          catalogScopeGuard: createCatalogScopeGuard(toolScopes, {
            listed: () => tools.listTools(),
            pluginOf,
            ownerOfUri: (uri) => plugins.ownerOfUri(uri),
            ownerOfPrompt: (name) => plugins.ownerOfPrompt(name),
            isBuiltin: (uri) => parts.builtinResources.some((entry) => entry.resource.uri === uri),
          }),
        }
      : {}),
    ...(scopeGuard && observer
      ? {
          // The audit log and the metrics count tool calls: a refused read or prompt is in the 403 alone.
          onScopeRefused: (refusal) => {
            if (refusal.kind !== 'tool') return;
            observer.write(
              scopeRefusalRecord({
                principal: refusal.principal,
                tool: refusal.name,
                plugin: pluginOf(refusal.name),
                era: refusal.era,
                requestId: refusal.id,
              }),
            );
          },
        }
      : {}),
    limits: state.limits,
    listenCap: state.listenCap,
    legacyClients: state.legacyClients,
    logger,
    createServer: parts.createServer,
    bus: state.bus,
    listen: state.listen,
    toolSchema: (name) => tools.listed(name)?.tool.inputSchema,
    ops: parts.ops.endpoints,
  });
  parts.closers.add(() => serving.close());
  parts.ops.addHttp(serving);
  if (exposure === 'accepted')
    logger.warn(
      { url: serving.url, host: address.host },
      'serving HTTP beyond loopback without authentication (allow_unauthenticated): anyone who reaches the port can call every tool',
    );
  return serving;
}
