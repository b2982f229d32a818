// Builds each connection's SDK Server, bound to the host: every server shares one set of options, made at the first.
import { randomUUID } from 'node:crypto';
import { redactSecrets, redactSecretsIn, redactSecretsInListing } from '../config/index.js';
import type { PluginHost } from '../host/index.js';
import {
  type Binding,
  type BoundServer,
  type BuiltinResource,
  type ServerFactoryOptions,
  LOCAL_PRINCIPAL,
  combinedHints,
  createBoundServer,
} from '../protocol/index.js';
import { FORESIGHT_VERSION } from '../version.js';
import type { ServerState } from './server-state.js';

export interface ServerFactoryParts {
  plugins: PluginHost;
  state: ServerState;
  openTools: ServerFactoryOptions['openTools'];
  builtinResources: readonly BuiltinResource[];
  /** Adds stack traces to error messages sent to clients. */
  debug: boolean;
}

/** A server for one connection of the given era (default: a 2025 client in memory). Start the host first. */
export type CreateServer = (binding?: Partial<Binding>) => BoundServer;

export function createServerFactory({
  plugins,
  state,
  openTools,
  builtinResources,
  debug,
}: ServerFactoryParts): CreateServer {
  // The same for every server; built at the first one, once the plugins are mounted and the lists' hints known.
  let serverOptions: ServerFactoryOptions | undefined;
  return (binding = {}) => {
    serverOptions ??= {
      name: 'foresight',
      version: FORESIGHT_VERSION,
      redact: redactSecrets,
      redactResult: redactSecretsIn,
      redactListing: redactSecretsInListing,
      debug,
      builtinResources,
      host: plugins,
      rounds: state.rounds,
      cacheHints: state.cacheHints,
      listHints: combinedHints(
        plugins.mountedPlugins().map((plugin) => plugin.name),
        state.cacheHints,
      ),
      openTools,
      streams: state.streams,
      tasks: state.tasks,
      admission: state.admission,
      callRate: state.callRate,
    };
    return createBoundServer(
      {
        era: binding.era ?? 'legacy',
        connection: binding.connection ?? {
          transport: 'memory',
          principal: LOCAL_PRINCIPAL,
          stream: `memory:${randomUUID()}`,
        },
      },
      serverOptions,
    );
  };
}
