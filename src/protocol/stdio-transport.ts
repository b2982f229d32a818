// A stdio transport that answers bad input instead of dropping it: a line that is not JSON gets -32700,
// one that is not JSON-RPC gets -32600, and an oversized line is skipped whole with -32600, all while
// the session keeps serving. (The SDK's stdio transport reports these to onerror only, and closes on size.)
// When stdin ends, requests already read are still answered before the transport closes.
import type { Readable, Writable } from 'node:stream';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { nestsDeeperThan } from './json-depth.js';
import { endedRequestId } from './listen.js';
import { NOT_JSON_RPC } from './wire-errors.js';

/** Default cap on one JSON-RPC line: 4 MiB, the same as the HTTP body cap. */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_DEPTH = 64;
const DEFAULT_MAX_UNANSWERED = 1024;

const CR = 13;
const WRITTEN: Promise<void> = Promise.resolve();

export interface LineTransportOptions {
  input?: Readable;
  output?: Writable;
  maxLineBytes?: number;
  /** Deepest nesting of objects and arrays in one message; a deeper request is refused (-32602). Default 64. */
  maxDepth?: number;
  /**
   * Requests read and not yet answered at which the transport stops reading its input, until half of them are
   * answered: a client that pipelines without bound is slowed down to the server's pace. Default 1024.
   */
  maxUnanswered?: number;
  /** Sees every message read and every message written (in that order of events), e.g. to follow listen streams. */
  observe?: { inbound?(message: JSONRPCMessage): void; outbound?(message: JSONRPCMessage): void };
  /** Refuses a request before it is served: the error it returns is the answer. */
  screen?(request: JSONRPCMessage): WireRefusal | undefined;
}

/** A JSON-RPC error a request is answered with instead of being served. */
export interface WireRefusal {
  code: number;
  message: string;
  data?: unknown;
}

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly input: Readable;
  private readonly output: Writable;
  private readonly maxLineBytes: number;
  private readonly maxDepth: number;
  private readonly maxUnanswered: number;
  /** Input read while reading was paused, taken up again when it resumes. */
  private backlog: Buffer | undefined;
  private readonly observe: LineTransportOptions['observe'];
  private readonly screen: LineTransportOptions['screen'];
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** True while skipping the rest of an oversized line. */
  private skipping = false;
  private isClosed = false;

  constructor(options: LineTransportOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.maxUnanswered = options.maxUnanswered ?? DEFAULT_MAX_UNANSWERED;
    this.observe = options.observe;
    this.screen = options.screen;
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
  }

  /** Resolves once the transport has closed (stdin ended and every request read was answered, or close()). */
  readonly closed: Promise<void>;
  private markClosed: () => void = () => {};

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.once('end', this.onEnd);
  }

  private readonly onInputError = (error: Error) => this.onerror?.(error);
  /** Requests read but not yet answered: after stdin ends they still get their answers before close. */
  private readonly unanswered = new Set<string | number>();
  /** Open `subscriptions/listen` streams: answered only when they end, so they never hold the transport open. */
  private readonly listening = new Set<string | number>();
  private inputEnded = false;

  private readonly onEnd = () => {
    this.inputEnded = true;
    this.closeWhenAnswered();
  };

  private closeWhenAnswered(): void {
    if (this.inputEnded && this.unanswered.size === 0 && this.backlog === undefined) void this.close();
  }

  /**
   * Follows the requests in flight. Returns false for a request whose id is still in use by one in flight (a
   * listen stream opened twice under one id, say): JSON-RPC ids name one request, and the SDK would take the
   * second for the first.
   */
  private track(message: JSONRPCMessage): boolean {
    if ('method' in message && 'id' in message) {
      if (this.unanswered.has(message.id) || this.listening.has(message.id)) return false;
      (message.method === 'subscriptions/listen' ? this.listening : this.unanswered).add(message.id);
    }
    // A cancelled request gets no answer, so it no longer holds the transport open.
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
      const id = endedRequestId(message);
      if (id !== undefined) {
        this.unanswered.delete(id);
        this.listening.delete(id);
      }
      this.closeWhenAnswered();
    }
    return true;
  }

  private readonly onData = (chunk: Buffer) => {
    // Input that arrives while reading is paused waits behind what was already set aside, in order.
    if (this.backlog !== undefined) this.backlog = Buffer.concat([this.backlog, chunk]);
    else this.consume(chunk);
  };

  private consume(chunk: Buffer): void {
    let rest = chunk;
    for (let newline = rest.indexOf(10); newline !== -1; newline = rest.indexOf(10)) {
      this.take(rest.subarray(0, newline));
      this.finishLine();
      rest = rest.subarray(newline + 1);
      // The rest of a chunk read before the pause waits with the input, so the bound holds to the request.
      if (this.backlog !== undefined || this.isPaused()) {
        if (rest.length > 0) this.backlog = rest;
        return;
      }
    }
    if (rest.length > 0) this.take(rest);
  }

  private isPaused(): boolean {
    if (this.unanswered.size < this.maxUnanswered) return false;
    this.input.pause();
    this.backlog ??= Buffer.alloc(0);
    return true;
  }

  /** Reads on once half of the requests that filled the bound are answered. */
  private resumeIfDrained(): void {
    if (this.backlog === undefined || this.isClosed || this.unanswered.size > this.maxUnanswered / 2) return;
    const backlog = this.backlog;
    this.backlog = undefined;
    if (backlog.length > 0) this.consume(backlog);
    if (this.backlog === undefined) this.input.resume();
  }

  private take(part: Buffer): void {
    if (this.skipping) return;
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.maxLineBytes) {
      this.skipping = true;
      this.pending = [];
      return;
    }
    this.pending.push(part);
  }

  private finishLine(): void {
    const skipped = this.skipping;
    // Most lines arrive in one chunk: no copy for those.
    const bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    const line = bytes.toString('utf8', 0, end);
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = false;
    if (skipped) {
      this.reply(null, -32600, `request exceeds the ${this.maxLineBytes}-byte limit and was ignored`);
      return;
    }
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.reply(null, -32700, `parse error: ${(error as Error).message}`);
      return;
    }
    if (nestsDeeperThan(value, this.maxDepth, line.length)) {
      const id = (value as { id?: unknown }).id;
      this.reply(
        typeof id === 'string' || typeof id === 'number' ? id : null,
        -32602,
        `invalid params: the message nests objects and arrays more than ${this.maxDepth} levels deep (arguments and _meta included); send a flatter value`,
      );
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      const validId = typeof id === 'string' || typeof id === 'number' ? id : null;
      this.reply(validId, -32600, NOT_JSON_RPC);
      return;
    }
    const refusal = 'method' in parsed.data && 'id' in parsed.data ? this.screen?.(parsed.data) : undefined;
    if (refusal) {
      void this.write({ jsonrpc: '2.0', id: (parsed.data as { id: string | number }).id, error: refusal });
      return;
    }
    if (!this.track(parsed.data)) {
      const { id } = parsed.data as { id: string | number };
      this.reply(
        id,
        -32600,
        `invalid request: id ${JSON.stringify(id)} is still in use by a request in flight (or an open listen stream); use a new id`,
      );
      return;
    }
    this.observe?.inbound?.(parsed.data);
    this.onmessage?.(parsed.data);
  }

  private reply(id: string | number | null, code: number, message: string): void {
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  /** Writes one line; returns a promise only when the output is full and the line waits for it to drain. */
  private write(message: unknown): Promise<void> | undefined {
    if (this.isClosed) return undefined;
    if (this.output.write(`${JSON.stringify(message)}\n`)) return undefined;
    return new Promise((resolve) => this.output.once('drain', resolve));
  }

  // Not async: an answer written at once (the usual case) costs no promise of its own.
  send(message: JSONRPCMessage): Promise<void> {
    this.observe?.outbound?.(message);
    const draining = this.write(message);
    if (!draining) {
      this.sent(message);
      return WRITTEN;
    }
    return draining.then(() => this.sent(message));
  }

  /** A request answered no longer holds the transport open. */
  private sent(message: JSONRPCMessage): void {
    const id = 'method' in message ? undefined : (message as { id?: string | number }).id;
    if (id === undefined) return;
    this.listening.delete(id);
    if (!this.unanswered.delete(id)) return;
    this.resumeIfDrained();
    this.closeWhenAnswered();
  }

  /**
   * The drain: reads no more input (what was read but set aside is dropped unanswered, as input never sent), and
   * closes once every request already read is answered, as when stdin ends.
   */
  stopReading(): void {
    if (this.isClosed) return;
    this.input.off('data', this.onData);
    this.input.pause();
    this.backlog = undefined;
    this.onEnd();
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    this.input.pause();
    this.onclose?.();
    this.markClosed();
  }
}
