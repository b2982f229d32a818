// What the HTTP listener and the direct 2025 answers both read from a request and write as a refusal.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long a client refused for a full server is told to wait before it tries again. */
export const RETRY_AFTER_S = 5;

/** A request header's value (the first, when repeated). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A JSON-RPC error as the whole answer, unless the answer has begun; a 503 says when to come back. */
export function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
): void {
  if (res.headersSent) return;
  if (status === 503) res.setHeader('retry-after', String(RETRY_AFTER_S));
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}
