// How a connection answers what an upstream server sends: change notices, updates, progress and log messages, and
// the server's requests (sampling, elicitation, roots), passed on to the agent's call they belong to.
import {
  type Client,
  type LoggingLevel,
  type ProgressNotification,
  ProtocolError,
  ProtocolErrorCode,
  type Root,
} from '@modelcontextprotocol/client';
import type { CatalogKind, RequestContext } from '../../contract/index.js';
import { type AskedBy, askAgent, inputKeyOf } from './input-bridge.js';

export interface ConnectionEvents {
  /** A catalog was read again after the server said it changed. */
  catalogChanged(kind: CatalogKind): void;
  /** `notifications/resources/updated` for one of the server's URIs. */
  resourceUpdated(uri: string): void;
  /** The server's URIs some agent subscribed to: a 2026-07-28 connection's listen stream opens with them. */
  subscribed(): readonly string[];
  /**
   * The agent's call a message of the server belongs to (sampling, elicitation, roots, log messages during a
   * tool call, a prompt's or a resource's reading): the newest call still running, as MCP over stdio does not say which call a message is for.
   */
  callInProgress(): RequestContext | undefined;
  /**
   * `notifications/progress` of the server. Handled here rather than by the SDK's `onprogress`, which drops a
   * last step that arrives together with the result (it handles the response first).
   */
  progress(params: ProgressNotification['params']): void;
  /** A log message of the server outside any call: it goes to Foresight's own log. */
  serverLog(level: LoggingLevel, data: unknown, logger?: string): void;
  /** What to answer the server's `roots/list` with: the configured roots, else the calling client's. */
  roots?: Root[];
  /** Outside a call: the roots of the one agent connected, if there is exactly one. */
  clientRoots(): Promise<Root[] | undefined>;
}

/**
 * Sets the client's handlers for what the server sends: `changed` hears its list-change notices, the rest goes to
 * `events` (requests only during a call, whose agent is asked).
 */
export function handleServerMessages(
  client: Client,
  events: ConnectionEvents,
  changed: (kind: CatalogKind) => void,
): void {
  client.setNotificationHandler('notifications/tools/list_changed', () => changed('tools'));
  client.setNotificationHandler('notifications/resources/list_changed', () => changed('resources'));
  client.setNotificationHandler('notifications/prompts/list_changed', () => changed('prompts'));
  client.setNotificationHandler('notifications/progress', ({ params }) => events.progress(params));
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    events.resourceUpdated(notification.params.uri);
  });
  const during = (what: string): RequestContext => {
    const call = events.callInProgress();
    if (call === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `${what} is only passed on during a call`);
    return call;
  };
  // The same handlers answer a legacy server's requests and a modern server's `input_required` results: the
  // SDK fulfils those through them during the call, then retries the call with the answers. The agent is asked
  // under the server's own key, so a modern agent sees the server's `inputRequests` as the server named them.
  const askedBy = (id: unknown, params: unknown): AskedBy => ({
    modern: client.getProtocolEra() === 'modern',
    id,
    params,
  });
  const keyed = (id: unknown, params: unknown) => {
    const key = inputKeyOf(askedBy(id, params));
    return key === undefined ? undefined : { key };
  };
  client.setRequestHandler('sampling/createMessage', (request, ctx) => {
    const call = during('sampling');
    return askAgent(call, () => call.createMessage(request.params, keyed(ctx.mcpReq.id, request.params)));
  });
  client.setRequestHandler('elicitation/create', (request, ctx) => {
    const call = during('elicitation');
    return askAgent(call, () => call.elicit(request.params, keyed(ctx.mcpReq.id, request.params)));
  });
  client.setRequestHandler('roots/list', async (request, ctx) => {
    if (events.roots) return { roots: events.roots };
    const call = events.callInProgress();
    // Outside a call: the one agent's roots; with none or several agents (over HTTP many share this
    // server), no roots, so a server such as server-filesystem keeps the directories it was started with.
    if (call === undefined) return { roots: (await events.clientRoots()) ?? [] };
    const { listRoots } = call;
    if (listRoots === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'the client has no roots');
    return askAgent(call, () => listRoots.call(call, keyed(ctx.mcpReq.id, request.params)), false);
  });
  client.setNotificationHandler('notifications/message', async ({ params }) => {
    const call = events.callInProgress();
    if (call) await call.log(params.level, params.data, params.logger);
    else events.serverLog(params.level, params.data, params.logger);
  });
}
