// The upstream plugin's provider: lists the server's last good catalogs and forwards every call to it.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type CompletionRequest,
  type CompletionResult,
  type PluginContext,
  type PluginProvider,
  type RequestContext,
  describeThrown,
  errors,
} from '../../host/index.js';
import { EMPTY_CATALOGS, UpstreamConnection, type UpstreamCatalogs } from './connection.js';
import { type UpstreamTarget, describeTarget } from './options.js';

type State =
  | { kind: 'connecting' }
  | { kind: 'connected'; connection: UpstreamConnection }
  | { kind: 'failed'; error: string }
  | { kind: 'closed' };

export function createUpstreamProvider(target: UpstreamTarget, ctx: PluginContext): PluginProvider {
  const where = describeTarget(target);
  const logger = ctx.logger.child({ upstream: where });
  let state: State = { kind: 'connecting' };

  const connected = (): UpstreamConnection => {
    if (state.kind === 'connected') return state.connection;
    const detail =
      state.kind === 'failed'
        ? `unavailable: ${state.error}`
        : state.kind === 'connecting'
          ? 'still connecting'
          : 'closed';
    throw errors.upstreamUnavailable(where, detail);
  };
  // While the server is down, its last good catalogs stay listed; its calls say why they cannot run.
  let lastGood: UpstreamCatalogs = EMPTY_CATALOGS;
  const catalogs = (): UpstreamCatalogs =>
    state.kind === 'connected' ? (lastGood = state.connection.catalogs) : lastGood;
  const options = (rc: RequestContext) => ({ signal: rc.signal });
  /** The agent's calls running now, oldest first: a server's sampling or elicitation goes to the newest. */
  const running: RequestContext[] = [];

  // Ends a connection attempt still under way at shutdown, so a server that never answers is not left running.
  const stopping = new AbortController();
  ctx.shutdown.addEventListener('abort', () => stopping.abort(), { once: true });
  let attempt: Promise<void> = Promise.resolve();

  const connect = async (): Promise<void> => {
    try {
      const connection = await UpstreamConnection.open(
        target,
        logger,
        {
          catalogChanged: (kind) => ctx.notifyListChanged(kind),
          resourceUpdated: (uri) => ctx.notifyResourceUpdated(uri),
          callInProgress: () => running.at(-1),
          closed: () => {
            if (state.kind === 'connected' && state.connection === connection) {
              lastGood = connection.catalogs;
              state = { kind: 'failed', error: 'the connection closed' };
              logger.warn({}, 'upstream: the connection closed');
            }
          },
        },
        stopping.signal,
      );
      if (stopping.signal.aborted) {
        await connection.close();
        return;
      }
      state = { kind: 'connected', connection };
      logger.info({ tools: connection.catalogs.tools.length }, 'upstream: connected');
      for (const kind of ['tools', 'resources', 'prompts'] as const) ctx.notifyListChanged(kind);
    } catch (error) {
      if (stopping.signal.aborted) return;
      state = { kind: 'failed', error: describeThrown(error) };
      logger.warn({ err: state.error }, 'upstream: could not connect');
    }
  };

  return {
    // The server answers in the background: the host serves the other plugins meanwhile, and this
    // one's catalog arrives with list_changed.
    start: async () => {
      attempt = connect();
    },
    shutdown: async () => {
      stopping.abort();
      await attempt;
      const current = state;
      state = { kind: 'closed' };
      if (current.kind === 'connected') await current.connection.close();
    },
    tools: () => catalogs().tools,
    callTool: async (name, args, rc) => {
      const { client } = connected();
      running.push(rc);
      try {
        return (await client.callTool({ name, arguments: args }, undefined, {
          ...options(rc),
          onprogress: (progress) => {
            void rc.reportProgress(progress.progress, progress.total, progress.message);
          },
        })) as CallToolResult;
      } finally {
        running.splice(running.indexOf(rc), 1);
      }
    },
    resources: () => catalogs().resources,
    resourceTemplates: () => catalogs().resourceTemplates,
    readResource: (uri, rc) => connected().client.readResource({ uri }, options(rc)),
    prompts: () => catalogs().prompts,
    getPrompt: (name, args, rc) =>
      connected().client.getPrompt({ name, ...(args ? { arguments: args } : {}) }, options(rc)),
    complete: async (req: CompletionRequest, rc): Promise<CompletionResult> =>
      (await connected().client.complete(req, options(rc))).completion,
  };
}
