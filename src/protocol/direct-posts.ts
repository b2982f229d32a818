// A 2025 session's requests answered on their own HTTP response, beside the SDK's session transport rather than
// through its web-standard streams. A request whose answer is the only message it gets is answered as one JSON
// body; one that is sent anything first (progress, a log message, a question for the client), that runs long, or
// that closes its stream for polling (SEP-1699) is upgraded to an SSE stream that can be resumed with
// Last-Event-ID, as the SDK's own are. Going through the SDK's Request, ReadableStream and Response objects took
// about 1.3 ms of a proxied call's 1.9 ms on 2 cores (bench/http-answer-latency.ts), for mcp-proxy as for us.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type AuthInfo,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  type EventStore,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  isJSONRPCRequest,
  isJsonContentType,
} from '@modelcontextprotocol/server';
import { header, sendJsonRpcError } from './http-answers.js';
import { endedRequestId } from './listen.js';

/** What a direct request needs of the session's SDK transport. */
export interface SessionTransport extends Pick<Transport, 'send' | 'onmessage' | 'sessionId'> {
  closeStandaloneSSEStream(): void;
}

export interface DirectPostsOptions {
  /** The store the SDK's transport resumes its streams from: a resumed direct stream replays from it too. */
  eventStore: EventStore;
  /** The reconnect delay sent with a stream's priming event (ms). */
  retryIntervalMs: number;
  /** How long a request may go unanswered before its response becomes a resumable stream. Default 1000 ms. */
  primeAfterMs?: number;
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

/** What a request waiting when its session closed is told (with 404 -32001, the SDK's code for a gone session). */
const SESSION_CLOSED = 'session closed before the request was answered; initialize again';

/** The first revision whose clients take an event with empty data: the priming event that makes a stream resumable. */
const PRIMING_REVISION = '2025-11-25';

/** A request naming a revision the session's server does not speak (the SDK answers it with 400). */
function unsupportedVersion(req: IncomingMessage): boolean {
  const version = header(req, 'mcp-protocol-version');
  return version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

function isAnswer(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return !('method' in message) && 'id' in message && message.id !== undefined;
}

/** One request answered on its own response: JSON until something else must be sent first, then SSE. */
class DirectPost {
  /** The response the request's messages go to; undefined once it closed (or was closed for polling). */
  res: ServerResponse | undefined;
  /** Whether this stream can be resumed: the SDK's rule (an event store, and a client that takes priming events). */
  readonly resumable: boolean;
  /** Set when the response became an SSE stream (its events are stored under it for a resume). */
  private streamId: string | undefined;
  /** The answer has come (or the request was cancelled). */
  private done = false;
  /** The session id on every response this request writes. */
  private readonly sessionHeader: Record<string, string>;
  private primeTimer: NodeJS.Timeout | undefined;
  /** Set once the answer is in the store: a resume after it ends with what it replays. */
  private answerStored = false;
  /** The steps of a stream, once there is one (or one is being made). */
  private chain: Promise<void> | undefined;

  constructor(
    readonly id: RequestId,
    res: ServerResponse,
    sessionId: string | undefined,
    protocolVersion: string,
    private readonly options: Required<DirectPostsOptions>,
    private readonly streams: Map<string, DirectPost>,
  ) {
    this.res = res;
    this.resumable = protocolVersion >= PRIMING_REVISION;
    this.sessionHeader = sessionId === undefined ? {} : { 'mcp-session-id': sessionId };
    // Priming only helps a client that can resume; a quick answer never needs it.
    if (this.resumable) {
      this.primeTimer = setTimeout(() => void this.inOrder(() => this.upgrade()), options.primeAfterMs);
      this.primeTimer.unref();
    }
    res.once('close', () => {
      if (this.res === res) this.res = undefined;
    });
  }

  /**
   * Sends one of the request's messages. Once anything but a lone answer is sent, every step is chained, so the
   * priming event, the messages and the end go out in the order they came, though the store is awaited between.
   */
  deliver(message: JSONRPCMessage): Promise<void> {
    const answer = isAnswer(message);
    if (answer) this.finish();
    if (answer && this.chain === undefined && this.streamId === undefined) {
      // The answer is the only message: one JSON body, as the revision allows (a client takes either).
      const res = this.res;
      if (res && !res.headersSent && !res.destroyed) {
        res.writeHead(200, { 'content-type': 'application/json', ...this.sessionHeader });
        res.end(JSON.stringify(message));
      }
      return Promise.resolve();
    }
    return this.inOrder(async () => {
      await this.upgrade();
      const eventId = await this.options.eventStore.storeEvent(this.streamId!, message);
      // A response the client closed, or a stream closed for polling: the event waits in the store for a resume.
      if (this.res) writeEvent(this.res, message, eventId);
      if (answer) {
        this.answerStored = true;
        this.end();
      }
    });
  }

  /** Ends the response while the call goes on; the client resumes with Last-Event-ID (SEP-1699). */
  closeStream(): Promise<void> {
    return this.inOrder(async () => {
      if (this.done) return;
      await this.upgrade();
      this.end();
    });
  }

  private inOrder(step: () => Promise<void>): Promise<void> {
    const next = (this.chain ?? Promise.resolve()).then(step);
    // A failed step (a store that throws) must not stop the ones after it; the caller still hears of it.
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** A GET with Last-Event-ID: what was stored after that event, then the rest as it comes. */
  resume(res: ServerResponse, lastEventId: string): Promise<void> {
    return this.inOrder(async () => {
      res.writeHead(200, { ...SSE_HEADERS, ...this.sessionHeader });
      await this.options.eventStore.replayEventsAfter(lastEventId, {
        send: async (eventId, message) => void writeEvent(res, message, eventId),
      });
      // The answer was among them: nothing more will come.
      if (this.answerStored) {
        res.end();
        return;
      }
      this.res = res;
      res.once('close', () => {
        if (this.res === res) this.res = undefined;
      });
    });
  }

  /** Turns the response into an SSE stream with its priming event, once. */
  private async upgrade(): Promise<void> {
    if (this.streamId !== undefined) return;
    clearTimeout(this.primeTimer);
    this.streamId = randomUUID();
    this.streams.set(this.streamId, this);
    const res = this.res;
    if (res && !res.headersSent) res.writeHead(200, { ...SSE_HEADERS, ...this.sessionHeader });
    if (!this.resumable) return;
    const primingId = await this.options.eventStore.storeEvent(this.streamId, {} as JSONRPCMessage);
    if (this.res && !this.res.writableEnded && !this.res.destroyed)
      this.res.write(`id: ${primingId}\nretry: ${this.options.retryIntervalMs}\ndata: \n\n`);
  }

  /** The client cancelled the request: no answer will come, so its response ends now. */
  cancel(): void {
    void this.inOrder(async () => {
      this.finish();
      // Nothing answers a cancelled request: a response not yet begun ends empty.
      if (this.res && !this.res.headersSent && !this.res.destroyed) this.res.writeHead(204);
      this.end();
    });
  }

  private finish(): void {
    this.done = true;
    clearTimeout(this.primeTimer);
  }

  private end(): void {
    const res = this.res;
    this.res = undefined;
    if (res && !res.writableEnded) res.end();
    // Once answered, a resume is the SDK's to serve from the store (it replays the rest, then closes).
    if (this.done && this.streamId !== undefined) this.streams.delete(this.streamId);
  }
}

function writeEvent(res: ServerResponse, message: JSONRPCMessage, eventId: string | undefined): void {
  if (res.writableEnded || res.destroyed) return;
  res.write(
    `event: message\n${eventId === undefined ? '' : `id: ${eventId}\n`}data: ${JSON.stringify(message)}\n\n`,
  );
}

/**
 * The direct requests of one session. Installed on its transport before the server connects, so that the session's
 * other wrappers (`withClientErrorCodes`) see every message first and this sees them as the client will.
 */
export class DirectPosts {
  private readonly posts = new Map<RequestId, DirectPost>();
  /** Streams of requests still running, by stream id: a GET that resumes one is served here. */
  private readonly streams = new Map<string, DirectPost>();
  private readonly options: Required<DirectPostsOptions>;
  private closed = false;

  constructor(
    private readonly transport: SessionTransport,
    options: DirectPostsOptions,
  ) {
    this.options = { primeAfterMs: 1_000, ...options };
    const send = transport.send.bind(transport);
    transport.send = (message, sendOptions) => {
      const answer = isAnswer(message);
      const id = answer ? message.id : sendOptions?.relatedRequestId;
      const post = id === undefined ? undefined : this.posts.get(id);
      if (!post) return send(message, sendOptions);
      if (answer) this.posts.delete(post.id);
      return post.deliver(message);
    };
    // A cancelled request is never answered: it is forgotten here, and its stream ends. Set before the server
    // connects, whose own handler calls the one it finds.
    const earlier = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ('method' in message && message.method === 'notifications/cancelled') {
        const id = endedRequestId(message);
        const post = id === undefined ? undefined : this.posts.get(id);
        if (post) {
          this.posts.delete(post.id);
          post.cancel();
        }
      }
      earlier?.(message, extra);
    };
  }

  /**
   * The request in `body` when this POST can be answered directly: one well-formed request (not initialize) with the
   * headers the SDK would accept. Anything else goes to the SDK's transport, whose answers (406, 415, 400) stand.
   */
  static requestOf(req: IncomingMessage, body: unknown): JSONRPCRequest | undefined {
    if (Array.isArray(body) || !isJSONRPCRequest(body) || body.method === 'initialize') return undefined;
    const accept = header(req, 'accept');
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
    if (!isJsonContentType(header(req, 'content-type') ?? '')) return undefined;
    if (unsupportedVersion(req)) return undefined;
    return body;
  }

  /** Whether a request under `id` is still waiting for its answer here (its response may have closed). */
  waiting(id: RequestId): boolean {
    return this.posts.has(id);
  }

  /** Hands the request to the session's server; its messages come back through the transport's `send`. */
  post(
    req: IncomingMessage,
    res: ServerResponse,
    request: JSONRPCRequest,
    authInfo: AuthInfo | undefined,
  ): void {
    // A DELETE or the idle sweep got there first: the server is gone, and nothing would answer.
    if (this.closed) return sendJsonRpcError(res, 404, -32001, SESSION_CLOSED, request.id);
    const version = header(req, 'mcp-protocol-version') ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
    const post = new DirectPost(
      request.id,
      res,
      this.transport.sessionId,
      version,
      this.options,
      this.streams,
    );
    this.posts.set(request.id, post);
    const extra: MessageExtraInfo = {
      ...(authInfo === undefined ? {} : { authInfo }),
      ...(post.resumable
        ? {
            closeSSEStream: () => void post.closeStream(),
            closeStandaloneSSEStream: () => this.transport.closeStandaloneSSEStream(),
          }
        : {}),
    };
    this.transport.onmessage?.(request, extra);
  }

  /**
   * Serves a GET that resumes one of this session's direct streams still running; false when the event is not of
   * one (the SDK's transport serves it: its own streams, the standalone one, and answered direct streams).
   */
  async resume(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const lastEventId = header(req, 'last-event-id');
    if (lastEventId === undefined || this.streams.size === 0) return false;
    // What the SDK would refuse (406, 400) it refuses itself.
    if (!header(req, 'accept')?.includes('text/event-stream')) return false;
    if (unsupportedVersion(req)) return false;
    const streamId = await this.options.eventStore.getStreamIdForEventId?.(lastEventId);
    const post = streamId === undefined ? undefined : this.streams.get(streamId);
    if (!post) return false;
    if (post.res) {
      sendJsonRpcError(res, 409, -32000, 'Conflict: Stream already has an active connection');
      return true;
    }
    await post.resume(res, lastEventId);
    return true;
  }

  /** The session ended: requests still waiting are told so, and open streams end. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const post of this.posts.values()) {
      const res = post.res;
      if (!res || res.writableEnded) continue;
      if (!res.headersSent) sendJsonRpcError(res, 404, -32001, SESSION_CLOSED, post.id);
      else res.end();
    }
    this.posts.clear();
    this.streams.clear();
  }
}
