// The worker thread side of worker isolation: builds the plugin from its module and serves the host's calls.
import { parentPort, workerData } from 'node:worker_threads';
import {
  type CatalogKind,
  describeThrown,
  errors,
  type InputRequestOptions,
  type Logger,
  type PluginContext,
  type PluginProvider,
  type RequestContext,
  type ToolCategory,
} from '../contract/index.js';
import { readCatalog, readHealth } from './catalog.js';
import { ClientRoots } from './client-roots.js';
import { installIsolationHandlers, runInPluginScope } from './isolation.js';
import { loadPluginModule } from './load.js';
import { CallContext } from './request-context.js';
import {
  type CallMessage,
  type ClientRequestKind,
  type HostMessage,
  RELAYED_PROVIDER_MEMBERS,
  type WorkerData,
  type WorkerMessage,
  deserializeError,
  serializeError,
} from './worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('worker-entry.js runs only as a worker thread');
const data = workerData as WorkerData;
/** How often the worker asks its plugin's `health()`; only a change crosses to the host. */
const HEALTH_POLL_MS = 250;
const post = (message: WorkerMessage) => port.postMessage(message);

function createPortLogger(bindings: Record<string, unknown>): Logger {
  const at = (level: 'trace' | 'debug' | 'info' | 'warn' | 'error') => (obj: unknown, msg?: string) =>
    post({ type: 'log', level, bindings, obj: toCloneable(obj), msg });
  return {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (more) => createPortLogger({ ...bindings, ...more }),
  };
}

function toCloneable(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return describeThrown(value);
  }
}

const logger = createPortLogger({ isolation: 'worker' });
installIsolationHandlers(logger);
const shutdown = new AbortController();
const calls = new Map<number, CallContext>();
const clientRequests = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextRequestId = 1;
let provider: PluginProvider | undefined;

/** Posts a request to the host and settles with its `reply`. */
function hostRequest(message: (requestId: number) => WorkerMessage): Promise<never> {
  const requestId = nextRequestId++;
  return new Promise((resolve, reject) => {
    clientRequests.set(requestId, { resolve: resolve as (v: unknown) => void, reject });
    post(message(requestId));
  });
}

function clientRequest(
  id: number,
  kind: ClientRequestKind,
  params: unknown,
  options: InputRequestOptions | undefined,
): Promise<never> {
  return hostRequest((requestId) => ({
    type: 'clientRequest',
    id,
    requestId,
    kind,
    params,
    ...(options ? { options: { ...options } } : {}),
  }));
}

function contextFor(
  {
    id,
    method,
    progressRequested,
    readOnly,
    principal,
    replayedInput,
    carriesInput,
    carriedInput,
    logLevel,
  }: CallMessage,
  deadlineAt: number,
): CallContext {
  // The host's own context decides about speculation and capabilities; this one only relays. Its abort comes
  // from the host, which has already answered the call, so there is nothing to tell from here.
  return new CallContext(
    {
      ...(progressRequested
        ? {
            sendProgress: async (progress: number, total?: number, message?: string) =>
              post({ type: 'progress', id, progress, total, message }),
          }
        : {}),
      // As the call started: the host's own context applies the client's threshold as it stands to each message.
      ...(logLevel === undefined ? {} : { logLevel }),
      ...(replayedInput === true ? { replayedInput } : {}),
      ...(principal === undefined ? {} : { principal }),
      ...(carriesInput === true
        ? { carryInput: (state: string) => post({ type: 'carryInput', id, state }) }
        : {}),
      ...(carriedInput === undefined ? {} : { carriedInput }),
      sendLog: async (level, payload, logger) =>
        post({ type: 'clientLog', id, level, data: toCloneable(payload), ...(logger ? { logger } : {}) }),
      createMessage: (params, _signal, options) => clientRequest(id, 'createMessage', params, options),
      elicit: (params, _signal, options) => clientRequest(id, 'elicit', params, options),
      listRoots: (_signal, options) => clientRequest(id, 'listRoots', undefined, options),
    },
    method,
    () => {},
    deadlineAt,
    readOnly === true,
  );
}

async function dispatch(
  p: PluginProvider,
  method: string,
  args: unknown[],
  ctx: RequestContext,
): Promise<unknown> {
  switch (method) {
    case 'callTool':
      return p.callTool(args[0] as string, args[1] as Record<string, unknown>, ctx);
    case 'readResource':
      if (!p.readResource) throw errors.resourceNotFound(String(args[0]));
      return p.readResource(args[0] as string, ctx);
    // The proxy defines these only when the plugin has them; a rebuilt plugin without them makes a no-op.
    case 'subscribe':
      return p.subscribe?.(args[0] as string, ctx);
    case 'unsubscribe':
      return p.unsubscribe?.(args[0] as string, ctx);
    case 'getPrompt':
      if (!p.getPrompt) throw errors.promptNotFound(String(args[0]));
      return p.getPrompt(args[0] as string, args[1] as Record<string, string> | undefined, ctx);
    case 'complete':
      return p.complete
        ? p.complete(args[0] as Parameters<NonNullable<PluginProvider['complete']>>[0], ctx)
        : { values: [] };
    case 'start':
      return p.start?.();
    case 'shutdown':
      return p.shutdown?.();
    default:
      throw errors.pluginFailed(`worker of ${data.name}`, `unknown method ${method}`);
  }
}

function runCall(message: CallMessage): void {
  const { id, method, args, timeLeftMs } = message;
  const ctx = contextFor(message, Date.now() + timeLeftMs);
  calls.set(id, ctx);
  let settled = false;
  const finish = (message: WorkerMessage) => {
    if (settled) return;
    settled = true;
    calls.delete(id);
    ctx.finish();
    // Before the answer, so a call that changed the plugin's health is seen changed when it returns.
    checkHealth();
    post(message);
  };
  const scope = {
    plugin: data.name,
    target: method,
    fail: (e: unknown) =>
      finish({ type: 'error', id, error: serializeError(errors.pluginCrashed(method, describeThrown(e))) }),
  };
  runInPluginScope(scope, () =>
    Promise.resolve().then(() => dispatch(provider as PluginProvider, method, args, ctx)),
  ).then(
    (value) => finish({ type: 'result', id, value: value ?? null }),
    (error: unknown) => finish({ type: 'error', id, error: serializeError(error) }),
  );
}

let lastHealth: string | undefined;
/** Tells the host the plugin's health when it differs from what the host was last told. */
function checkHealth(): void {
  const health = provider && readHealth(provider);
  if (!health) return;
  const key = JSON.stringify(health);
  if (key === lastHealth) return;
  lastHealth = key;
  post({ type: 'health', health });
}

/** The plugin's roots listeners, told when the host relays a change. */
const roots = new ClientRoots(logger);

function catalogNotifier(kind: CatalogKind): void {
  if (provider) post({ type: 'catalog', kind, catalog: readCatalog(provider, data.name) });
}

port.on('message', (message: HostMessage) => {
  switch (message.type) {
    case 'call':
      runCall(message);
      return;
    case 'abort':
      calls.get(message.id)?.abort(deserializeError(message.reason));
      return;
    case 'reply': {
      const waiting = clientRequests.get(message.requestId);
      clientRequests.delete(message.requestId);
      if (message.error) waiting?.reject(deserializeError(message.error));
      else waiting?.resolve(message.value);
      return;
    }
    case 'rootsChanged':
      roots.changed();
      return;
    case 'shutdownSignal':
      shutdown.abort(errors.shuttingDown(`plugin "${data.name}"`));
      return;
  }
});

/** What each enricher serves; its schema edits and argument mapping cannot cross to the host's thread. */
function enricherCategories(built: PluginProvider): ToolCategory[][] {
  const list = built.enrichers?.() ?? [];
  if (list.length) {
    logger.warn(
      { enrichers: list.length },
      'isolation = "worker": enrichers keep their tools visible, but their schema edits and argument mapping are not applied',
    );
  }
  return list.map((enricher) => [...enricher.supportedCategories()]);
}

const context: PluginContext = {
  config: data.config,
  logger,
  shutdown: shutdown.signal,
  notifyListChanged: catalogNotifier,
  notifyResourceUpdated: (uri) => post({ type: 'resourceUpdated', uri }),
};
// Offered only when the host's own context has them; the host answers from its real context.
if (data.contextMembers.includes('clientRoots'))
  context.clientRoots = () => hostRequest((requestId) => ({ type: 'clientRoots', requestId }));
if (data.contextMembers.includes('onRootsChanged'))
  context.onRootsChanged = (listener) => roots.onChanged(listener);
// Registered in the host's thread, which is where results, errors and logs are redacted.
if (data.contextMembers.includes('secrets'))
  context.secrets = {
    add: (value) => post({ type: 'secret', value }),
    addBasicCredential: (user, value) => post({ type: 'secret', value, user }),
  };

try {
  const plugin = await loadPluginModule(data.module, `"${data.name}"`);
  const built = await runInPluginScope({ plugin: data.name, target: 'build', fail: () => {} }, () =>
    Promise.resolve().then(() => plugin.build(context)),
  );
  provider = built;
  const health = readHealth(built);
  lastHealth = health && JSON.stringify(health);
  post({
    type: 'ready',
    catalog: readCatalog(built, data.name),
    enricherCategories: enricherCategories(built),
    members: RELAYED_PROVIDER_MEMBERS.filter((member) => typeof built[member] === 'function'),
    ...(health ? { health } : {}),
  });
  if (built.health) setInterval(checkHealth, HEALTH_POLL_MS).unref();
} catch (error) {
  post({ type: 'buildFailed', error: serializeError(error) });
}
