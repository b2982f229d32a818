// Runs a plugin in a worker thread behind a PluginProvider proxy; a call that overruns ends the thread,
// so even a synchronous infinite loop cannot stall the host. The next call starts a fresh thread.
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/server';
import {
  clampDelay,
  type CompletionResult,
  errors,
  type PluginHealth,
  type PluginProvider,
  type RequestContext,
  type ToolCategory,
  type ToolEnricher,
} from '../contract/index.js';
import type { Catalog } from './mount.js';
import { type WorkerProviderOptions, WorkerThread } from './worker-thread.js';
import type { RelayedProviderMember, WorkerMethod } from './worker-protocol.js';

export { WORKER_ABORT_GRACE_MS } from './worker-thread.js';

/** Spawns the plugin's worker, waits for its first build, and returns the proxy the host mounts. */
export async function createWorkerProvider(options: WorkerProviderOptions): Promise<PluginProvider> {
  let catalog: Catalog;
  let enricherCategories: ToolCategory[][] = [];
  let members: RelayedProviderMember[] = [];
  let health: PluginHealth | undefined;
  let thread: WorkerThread | undefined;
  let started = false;
  let shuttingDown = false;

  // start() and shutdown() carry no RequestContext, so the proxy applies their deadlines to the thread itself.
  const startSignal = () =>
    AbortSignal.any([
      options.host.shutdownSignal,
      AbortSignal.timeout(clampDelay(options.mount.deadlines.start)),
    ]);

  const spawn = async (): Promise<WorkerThread> => {
    const fresh = new WorkerThread(options, {
      catalog: (message) => {
        catalog = message.catalog;
        options.context.notifyListChanged(message.kind);
      },
      health: (reported) => (health = reported),
      exit: (ended) => {
        if (thread === ended) thread = undefined;
      },
    });
    // The first build runs under the start deadline too: a module that hangs while loading is ended.
    const deadline = startSignal();
    const onDeadline = () => fresh.terminate(`building the plugin overran its start deadline`);
    deadline.addEventListener('abort', onDeadline, { once: true });
    try {
      ({ catalog, enricherCategories, members, health } = await fresh.ready);
    } finally {
      deadline.removeEventListener('abort', onDeadline);
    }
    // A replacement thread resumes the background work the plugin began in start().
    if (started) await fresh.call('start', [], noClientContext(startSignal()));
    // Published only when ready, so no call reaches a thread that has not built its plugin yet.
    thread = fresh;
    return fresh;
  };

  let spawning: Promise<WorkerThread> | undefined;
  const live = async (): Promise<WorkerThread> => {
    // A thread with an overrun call may be stuck: wait until it proves healthy or is ended and replaced.
    while (thread?.draining) await thread.draining;
    if (thread) return thread;
    spawning ??= spawn().finally(() => (spawning = undefined));
    return spawning;
  };
  const call = async (method: WorkerMethod, args: unknown[], ctx: RequestContext) =>
    (await live()).call(method, args, ctx);

  await live();
  // Told to whichever thread is live; a thread spawned later builds its plugin afresh and asks for roots itself.
  const offRootsChanged = options.context.onRootsChanged?.(() => thread?.rootsChanged());
  // A plugin that never started gets no shutdown() call, so its thread is ended here instead of left behind.
  options.host.shutdownSignal.addEventListener(
    'abort',
    () => {
      offRootsChanged?.();
      if (started) thread?.signalShutdown();
      else thread?.terminate('the host shut down before it started');
    },
    { once: true },
  );

  const proxy: PluginProvider = {
    tools: () => catalog.tools,
    // Enricher code stays in the thread: the host gets stand-ins that keep the tools' categories visible.
    enrichers: () => enricherCategories.map((categories) => categoryStandIn(categories)),
    resources: () => catalog.resources,
    resourceTemplates: () => catalog.templates,
    prompts: () => catalog.prompts,
    catalogHints: () => catalog.hints ?? {},
    // Results crossed the thread boundary as structured clones; the host validates their shape next.
    callTool: (name, args, ctx) => call('callTool', [name, args], ctx) as Promise<CallToolResult>,
    readResource: (uri, ctx) => call('readResource', [uri], ctx) as Promise<ReadResourceResult>,
    getPrompt: (name, args, ctx) => call('getPrompt', [name, args], ctx) as Promise<GetPromptResult>,
    complete: (req, ctx) => call('complete', [req], ctx) as Promise<CompletionResult>,
    start: async () => {
      started = true;
      await call('start', [], noClientContext(startSignal()));
    },
    shutdown: async () => {
      if (shuttingDown) return;
      shuttingDown = true;
      const current = thread;
      if (!current) return;
      try {
        await current.call(
          'shutdown',
          [],
          noClientContext(AbortSignal.timeout(clampDelay(options.mount.deadlines.shutdown))),
        );
      } finally {
        current.terminate('the host shut down');
      }
    },
  };
  // Defined only when the plugin in the worker has them (the same module builds the same provider on respawn).
  if (members.includes('subscribe'))
    proxy.subscribe = async (uri, ctx) => {
      await call('subscribe', [uri], ctx);
    };
  if (members.includes('unsubscribe'))
    proxy.unsubscribe = async (uri, ctx) => {
      await call('unsubscribe', [uri], ctx);
    };
  // The last health the worker reported; it polls its plugin and posts only changes.
  if (members.includes('health')) proxy.health = () => health ?? { state: 'ready' };
  return proxy;
}

function noClientContext(signal: AbortSignal): RequestContext {
  const refuse = () => Promise.reject(errors.clientRequestOutsideCall());
  return {
    signal,
    clientSignal: signal,
    timeLeftMs: () => Number.MAX_SAFE_INTEGER,
    speculative: false,
    progressRequested: false,
    reportProgress: async () => {},
    log: async () => {},
    createMessage: refuse,
    elicit: refuse,
    listRoots: refuse,
  };
}

function categoryStandIn(categories: readonly ToolCategory[]): ToolEnricher {
  return {
    name: 'worker stand-in',
    supportedCategories: () => categories,
    enrichSchema: () => {},
    transformArgs: () => {},
  };
}
