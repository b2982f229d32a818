// Raw 2026-07-28 requests over Streamable HTTP: what a modern client puts on the wire, and every message the
// server answers with, so tests can assert the wire itself and send what no correct client would.
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { PLANNER_STATS_URI } from '../../src/planner/index.js';

export const MODERN_VERSION = '2026-07-28';

export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** The per-request `_meta` envelope of a modern request. */
export function modernMeta(
  capabilities: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    ...extra,
  };
}

export interface PostOptions {
  id?: string | number;
  /** Replaces the envelope (default `modernMeta(capabilities)`); `null` sends none. */
  meta?: Record<string, unknown> | null;
  capabilities?: Record<string, unknown>;
  /** Header overrides; a value of `null` leaves the header out. */
  headers?: Record<string, string | null>;
  /** The local address the request leaves from (127.0.0.2 is another caller on loopback). */
  localAddress?: string;
  /** For a stream: stop reading after this many messages. */
  maxMessages?: number;
  /** Give up reading a stream after this long (the messages read so far are returned). Default 5 s. */
  readTimeoutMs?: number;
  /** Sees each message of a stream as it arrives (to act once a listen stream is acknowledged, say). */
  onMessage?(message: JsonRpcMessage): void;
}

export interface WireAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  contentType: string;
  /** Every JSON-RPC message of the body, in order (one for a JSON body, each event of an SSE body). */
  messages: JsonRpcMessage[];
  /** The response to the request's own id, if one came. */
  response?: JsonRpcMessage;
}

let nextId = 1;

function standardHeaders(
  method: string,
  params: Record<string, unknown> | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': method,
  };
  // The tasks extension routes its methods by the task id (the header a load balancer may route on).
  const name = method.startsWith('tasks/') ? params?.taskId : (params?.name ?? params?.uri);
  if (
    (method === 'tools/call' ||
      method === 'prompts/get' ||
      method === 'resources/read' ||
      method === 'tasks/get' ||
      method === 'tasks/update' ||
      method === 'tasks/cancel') &&
    typeof name === 'string'
  )
    headers['mcp-name'] = name;
  return headers;
}

/** Sends one modern request and reads the whole answer (or `maxMessages` of a stream). */
export function modernPost(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  options: PostOptions = {},
): Promise<WireAnswer> {
  const id = options.id ?? nextId++;
  const meta = options.meta === undefined ? modernMeta(options.capabilities) : options.meta;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: meta === null ? params : { ...params, _meta: { ...(params._meta as object), ...meta } },
  });
  const headers: Record<string, string> = { ...standardHeaders(method, params) };
  for (const [key, value] of Object.entries(options.headers ?? {})) {
    if (value === null) delete headers[key.toLowerCase()];
    else headers[key.toLowerCase()] = value;
  }
  return postBody(url, body, headers, id, options);
}

/** Sends one POST and reads its answer (until `id`'s response, when given). */
function postBody(
  url: string,
  body: string,
  headers: Record<string, string>,
  id: string | number | undefined,
  options: PostOptions,
): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => readAnswer(res, id, options).then(resolve, reject),
    );
    req.once('error', reject);
    req.end(body);
  });
}

/**
 * Posts a body as it is (any JSON, a batch, a body no client would send) with the given headers over the
 * defaults (JSON, both answer types accepted), and reads every message of the answer.
 */
export function postRaw(
  url: string,
  body: string,
  headers: Record<string, string> = {},
  options: PostOptions = {},
): Promise<WireAnswer> {
  const defaults = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  return postBody(url, body, { ...defaults, ...headers }, undefined, options);
}

/** The data of one server-sent event: its `data:` lines joined ("" for an event with none). */
export function eventData(event: string): string {
  return event
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
}

/** Reads an answer; with an `id`, a stream is read until that request's response (or `maxMessages`) arrives. */
async function readAnswer(
  res: IncomingMessage,
  id: string | number | undefined,
  options: PostOptions,
): Promise<WireAnswer> {
  const contentType = String(res.headers['content-type'] ?? '');
  const messages: JsonRpcMessage[] = [];
  const answer = (): WireAnswer => ({
    status: res.statusCode ?? 0,
    headers: res.headers,
    contentType,
    messages,
    response: messages.find((message) => message.id === id && message.method === undefined),
  });
  if (!contentType.startsWith('text/event-stream')) {
    let text = '';
    for await (const chunk of res) text += String(chunk);
    if (text.trim() !== '') messages.push(JSON.parse(text) as JsonRpcMessage);
    return answer();
  }
  const max = options.maxMessages ?? Number.POSITIVE_INFINITY;
  const timer = setTimeout(() => res.destroy(), options.readTimeoutMs ?? 5_000);
  let buffer = '';
  try {
    for await (const chunk of res) {
      buffer += String(chunk);
      const events = buffer.split(/\r?\n\r?\n/);
      buffer = events.pop() ?? '';
      for (const event of events) {
        const data = eventData(event);
        if (data === '') continue;
        const message = JSON.parse(data) as JsonRpcMessage;
        messages.push(message);
        options.onMessage?.(message);
      }
      if (messages.length >= max || answer().response) break;
    }
  } catch {
    // Destroyed by the read timeout: what arrived is the answer.
  } finally {
    clearTimeout(timer);
    res.destroy();
  }
  return answer();
}

/** A server's planner stats (`foresight://planner/stats`), read over the modern wire and parsed. */
export async function readPlannerStats<T>(url: string): Promise<T> {
  const answer = await modernPost(url, 'resources/read', { uri: PLANNER_STATS_URI });
  const contents = (answer.response?.result as { contents?: { text?: string }[] } | undefined)?.contents;
  return JSON.parse(contents?.[0]?.text ?? '{}') as T;
}
