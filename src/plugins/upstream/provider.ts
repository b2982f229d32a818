// The upstream plugin's provider: lists the server's last good catalogs and forwards every call to it.
import {
  type CallToolResult,
  type Client,
  LOG_LEVEL_META_KEY,
  type Root,
  specTypeSchemas,
} from '@modelcontextprotocol/client';
import {
  type CompletionRequest,
  type CompletionResult,
  describeThrown,
  type PluginContext,
  type PluginProvider,
  type RequestContext,
  type ToolDescriptor,
} from '../../contract/index.js';
import { UpstreamConnection } from './connection.js';
import { capabilitiesMeta, failureOf, refusalBehind, replayRefusal } from './input-bridge.js';
import {
  type InputRound,
  type RoundAnswers,
  relayRounds,
  relaysRounds,
  resumesCarriedRound,
} from './input-relay.js';
import { type Backoff, DEFAULT_BACKOFF, type UpstreamTarget, describeTarget } from './options.js';
import { protocolFailure } from './protocol-failure.js';
import { UpstreamSupervisor } from './supervisor.js';
import { refusedForTasks, tasksRefusal } from './task-support.js';
import { followTask, followsTasks, sendAsTask } from './upstream-task.js';

export interface UpstreamProviderOptions {
  roots?: Root[];
  backoff?: Backoff;
}

/** A 2026-07-28 server is told, per request, what the agent can answer; a 2025 one knows only our session's. */
function metaFor(client: Client, rc: RequestContext): Record<string, unknown> | undefined {
  return client.getProtocolEra() === 'modern' ? capabilitiesMeta(rc) : undefined;
}

/**
 * What a 2025 server's tool result is checked against when it is asked for by name (`plainCall`). The client's
 * callTool adds nothing a 2025 server needs for a tool without an output schema (its header scan is for 2026-07-28
 * servers, its validator for output schemas), and its spec-method path probes the era's result schema with
 * `undefined` on every request, whose failed parse formats an error message each time: 4–5% of a proxied call's
 * CPU in a profile of the upstream bench.
 */
const CALL_TOOL_RESULT = specTypeSchemas.CallToolResult;

/** The request option that hands a 2026-07-28 server's `input_required` back instead of answering it. */
const ALLOW_INPUT_REQUIRED = { allowInputRequired: true } as const;

function withMeta(meta: Record<string, unknown> | undefined): { _meta?: Record<string, unknown> } {
  return meta === undefined ? {} : { _meta: meta };
}

/**
 * A tool call as sent upstream. `_meta` asks for progress when the agent did, and, on a 2026-07-28 connection,
 * says what the agent can answer and asks for log messages at the agent's level: such a server logs to a request
 * only when it names one (a 2025 server logs at its session's level, which Foresight leaves at its default).
 */
function toolCall(
  client: Client,
  rc: RequestContext,
  name: string,
  args: Record<string, unknown>,
  progressToken: string | undefined,
) {
  const modern = client.getProtocolEra() === 'modern';
  const level = modern ? rc.logLevel : undefined;
  const meta = {
    ...(modern ? capabilitiesMeta(rc) : undefined),
    ...(progressToken === undefined ? {} : { progressToken }),
    ...(level === undefined ? {} : { [LOG_LEVEL_META_KEY]: level }),
  };
  return Object.keys(meta).length === 0 ? { name, arguments: args } : { name, arguments: args, _meta: meta };
}

export function createUpstreamProvider(
  target: UpstreamTarget,
  ctx: PluginContext,
  options: UpstreamProviderOptions = {},
): PluginProvider {
  /** Where the server is, as messages name it: made once, not on every call. */
  const where = describeTarget(target);
  const logger = ctx.logger.child({ upstream: where });
  /**
   * The agent's requests running now (tool calls, prompts, resource readings), oldest first: a server's sampling,
   * elicitation or log goes to the newest.
   */
  const running: RequestContext[] = [];
  /** Calls waiting for progress, by the token Foresight gave the server. */
  const progressOf = new Map<string, RequestContext>();
  let nextToken = 0;
  /** The server's URIs some client subscribed to: asked for again on every new connection. */
  const subscribed = new Set<string>();
  const canSubscribe = (client: Client) => client.getServerCapabilities()?.resources?.subscribe === true;
  /**
   * Passes a first subscriber or a last unsubscriber on to the server, when it takes subscriptions: by
   * `resources/subscribe` to a 2025 server, as the resources of its listen stream to a 2026-07-28 one.
   */
  const subscription = async (uri: string, rc: RequestContext, on: boolean): Promise<void> => {
    if (on) subscribed.add(uri);
    else subscribed.delete(uri);
    await supervisor.request(async (client, connection) => {
      if (connection.listens) return connection.listenTo([...subscribed]);
      if (!canSubscribe(client)) return;
      const options = UpstreamConnection.requestOptions(rc);
      await (on ? client.subscribeResource({ uri }, options) : client.unsubscribeResource({ uri }, options));
    }, rc);
  };
  /**
   * Runs a request the server may answer with questions for the agent (a tool call, a prompt, a resource): they
   * go to the newest such request still running. Its failure is told as the agent should hear it (`failureOf`).
   */
  const during = async <T>(rc: RequestContext, request: () => Promise<T>): Promise<T> => {
    running.push(rc);
    try {
      return await request();
    } catch (error) {
      throw failureOf(rc, error);
    } finally {
      running.splice(running.indexOf(rc), 1);
    }
  };
  /**
   * Sends a request the server may answer with `input_required` (a tool call, a prompt, a resource). A 2026-07-28
   * agent's call is relayed round by round (`relayRounds`): `request` is told to send the round's answers and to
   * take the server's `input_required` back (`manual`). Otherwise the SDK client answers the server's rounds itself.
   * Each round is its own request to the server, so a restart between rounds costs no answer of the agent's.
   */
  const relayed = <R>(
    rc: RequestContext,
    request: (client: Client, answers: RoundAnswers | undefined, manual: boolean) => Promise<R | InputRound>,
    readOnly?: boolean,
  ): Promise<R> =>
    // Most calls have no round to relay (a 2025 agent, a speculative call, a 2025 server) and carry none: one
    // request, which the SDK answers whole, without the relay's machinery on the path.
    rc.carriedInput === undefined &&
    (rc.carryInput === undefined || supervisor.current()?.client.getProtocolEra() === 'legacy')
      ? (supervisor.request((client) => request(client, undefined, false), rc, readOnly) as Promise<R>)
      : relayRounds(
          rc,
          (answers) =>
            supervisor.request(
              (client) =>
                request(
                  client,
                  answers,
                  answers !== undefined || relaysRounds(client.getProtocolEra() === 'modern', rc),
                ),
              rc,
              readOnly,
            ),
          options.roots,
        );
  /** Whether the connection now is one whose tasks Foresight follows (a 2026-07-28 server offering them). */
  const followable = (): boolean => {
    const client = supervisor.current()?.client;
    return client !== undefined && followsTasks(client);
  };
  /** The catalog's tools by name, indexed once per catalog (every call looks its tool up). */
  let index: { of: readonly ToolDescriptor[]; byName: Map<string, ToolDescriptor> } | undefined;
  const listedTool = (name: string): ToolDescriptor | undefined => {
    const { tools } = supervisor.catalogs();
    if (index?.of !== tools) index = { of: tools, byName: new Map(tools.map((tool) => [tool.name, tool])) };
    return index.byName.get(name);
  };
  /** A tool listed (or configured) as run only as a task. */
  const taskRequired = (name: string): boolean => listedTool(name)?.execution?.taskSupport === 'required';
  /**
   * Calls a tool declaring the tasks extension and follows the task the server makes of it to its end (its
   * questions before the task is made are relayed as a plain call's are).
   */
  const callAsTask = async (
    name: string,
    args: Record<string, unknown>,
    rc: RequestContext,
    progressToken: string | undefined,
  ): Promise<CallToolResult> => {
    const answer = await relayed(rc, (client, answers, manual) =>
      sendAsTask(client, { ...toolCall(client, rc, name, args, progressToken), ...answers }, rc, manual),
    );
    return 'result' in answer ? answer.result : followTask(answer.client, answer.task, rc, options.roots);
  };
  const plainCall = (
    name: string,
    args: Record<string, unknown>,
    rc: RequestContext,
    progressToken: string | undefined,
  ): Promise<CallToolResult> =>
    relayed(rc, (client, answers, manual) => {
      const params = { ...toolCall(client, rc, name, args, progressToken), ...answers };
      const requestOptions = {
        ...UpstreamConnection.requestOptions(rc),
        ...(manual ? ALLOW_INPUT_REQUIRED : {}),
      };
      return client.getProtocolEra() === 'legacy' && listedTool(name)?.outputSchema === undefined
        ? client.request({ method: 'tools/call', params }, CALL_TOOL_RESULT, requestOptions)
        : client.callTool(params, requestOptions);
    });
  /**
   * Calls a tool. On a connection whose tasks Foresight follows, a tool known to run only as a task is called as
   * one at once, and one the server refuses for want of the extension is called again as a task. Elsewhere the
   * call is plain, and nothing waits on its refusal.
   */
  const callUpstreamTool = (
    name: string,
    args: Record<string, unknown>,
    rc: RequestContext,
    progressToken: string | undefined,
  ): Promise<CallToolResult> => {
    if (!followable()) return plainCall(name, args, rc, progressToken);
    if (taskRequired(name)) return callAsTask(name, args, rc, progressToken);
    return plainCall(name, args, rc, progressToken).catch((error: unknown) => {
      if (!refusedForTasks(error)) throw error;
      return callAsTask(name, args, rc, progressToken);
    });
  };
  const supervisor = new UpstreamSupervisor(
    target,
    logger,
    {
      catalogChanged: (kind) => ctx.notifyListChanged(kind),
      resourceUpdated: (uri) => ctx.notifyResourceUpdated(uri),
      subscribed: () => [...subscribed],
      callInProgress: () => running.at(-1),
      progress: ({ progressToken, progress, total, message }) => {
        void progressOf.get(String(progressToken))?.reportProgress(progress, total, message);
      },
      serverLog: (level, data, name) => logger.debug({ level, data, logger: name }, 'upstream: log message'),
      connected: (connection) => {
        for (const kind of ['tools', 'resources', 'prompts'] as const) ctx.notifyListChanged(kind);
        // A listen stream opened with the subscriptions of its time: one made since is caught up here.
        if (connection.listens)
          return void connection.listenTo([...subscribed]).catch((error: unknown) => {
            logger.warn({ err: describeThrown(error) }, 'upstream: could not listen for resource updates');
          });
        const { client } = connection;
        if (!canSubscribe(client)) return;
        for (const uri of subscribed)
          client.subscribeResource({ uri }).catch((error: unknown) => {
            logger.warn({ uri, err: describeThrown(error) }, 'upstream: could not subscribe again');
          });
      },
      clientRoots: () => ctx.clientRoots?.() ?? Promise.resolve(undefined),
      ...(options.roots ? { roots: options.roots } : {}),
    },
    options.backoff ?? DEFAULT_BACKOFF,
  );
  ctx.shutdown.addEventListener('abort', () => void supervisor.stop(), { once: true });
  // The server asks again when told the roots changed (configured roots never change).
  if (!options.roots)
    ctx.onRootsChanged?.(() => {
      supervisor
        .current()
        ?.client.sendRootsListChanged()
        .catch(() => {});
    });

  return {
    // The server answers in the background: the host serves the other plugins meanwhile, and holds the
    // lists until this one's catalogs are in (or its first attempt failed, or its start deadline passed).
    start: async () => supervisor.start(),
    catalogsSettled: () => supervisor.firstAttempt(),
    shutdown: () => supervisor.stop(),
    health: () => supervisor.health(),
    tools: () => supervisor.catalogs().tools,
    callTool: async (name, args, rc) => {
      // Before anything reaches the server: a write replayed here would run a second time, unless the replay
      // resumes the server's own round (a 2026-07-28 server's state carried in the agent's retry), which only a
      // 2026-07-28 connection can take (a 2025 one would run the call afresh).
      const resumes = resumesCarriedRound(rc) && supervisor.current()?.client.getProtocolEra() === 'modern';
      const notHeld = resumes ? undefined : replayRefusal(rc, name, where);
      if (notHeld !== undefined) throw notHeld;
      // The server is asked for progress only when the agent asked for it: nobody would hear it otherwise.
      const progressToken = rc.progressRequested ? `foresight-${(nextToken += 1)}` : undefined;
      if (progressToken !== undefined) progressOf.set(progressToken, rc);
      try {
        const result = await during(rc, () => callUpstreamTool(name, args, rc, progressToken));
        const refused = refusalBehind(rc, result);
        if (refused !== undefined) throw refused;
        return result;
      } catch (error) {
        throw tasksRefusal(error, name) ?? protocolFailure(error, where) ?? error;
      } finally {
        if (progressToken !== undefined) progressOf.delete(progressToken);
      }
    },
    resources: () => supervisor.catalogs().resources,
    resourceTemplates: () => supervisor.catalogs().resourceTemplates,
    // Reading a resource or a prompt, and completing, change nothing by MCP's definition: they wait out a
    // restart as a read-only tool call does.
    readResource: (uri, rc) =>
      during(rc, () =>
        relayed(
          rc,
          // 'bypass': Foresight's planner does the caching; a copy kept here would answer past its own rules.
          (client, answers, manual) =>
            client.readResource(
              { uri, ...withMeta(metaFor(client, rc)), ...answers },
              {
                ...UpstreamConnection.requestOptions(rc),
                cacheMode: 'bypass',
                ...(manual ? ALLOW_INPUT_REQUIRED : {}),
              },
            ),
          true,
        ),
      ),
    subscribe: (uri, rc) => subscription(uri, rc, true),
    unsubscribe: (uri, rc) => subscription(uri, rc, false),
    prompts: () => supervisor.catalogs().prompts,
    // What the server said of its lists (and, on a read's own result, of that read) bounds what Foresight says.
    catalogHints: () => supervisor.catalogs().hints,
    getPrompt: (name, args, rc) =>
      during(rc, () =>
        relayed(
          rc,
          (client, answers, manual) =>
            client.getPrompt(
              { name, ...(args ? { arguments: args } : {}), ...withMeta(metaFor(client, rc)), ...answers },
              { ...UpstreamConnection.requestOptions(rc), ...(manual ? ALLOW_INPUT_REQUIRED : {}) },
            ),
          true,
        ),
      ),
    complete: async (req: CompletionRequest, rc): Promise<CompletionResult> =>
      (
        await supervisor.request(
          (client) => client.complete(req, UpstreamConnection.requestOptions(rc)),
          rc,
          true,
        )
      ).completion,
  };
}
