// Request checks before any MCP handling: Host/Origin against DNS rebinding, and the optional bearer token.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { errors } from '../host/index.js';

export interface HttpGuardOptions {
  host: string;
  port: number;
  /** Extra Host header values to accept (e.g. "my-box.local:3000"). */
  allowedHosts?: readonly string[];
  /** Extra Origin values to accept (e.g. "https://app.example"). */
  allowedOrigins?: readonly string[];
  /** When set, every request needs `Authorization: Bearer <token>`. */
  authToken?: string;
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host === '[::1]';
}

export function createHttpGuard(options: HttpGuardOptions): (headers: IncomingHttpHeaders) => GuardVerdict {
  const bound =
    options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  const names = isLoopback(options.host) ? LOOPBACK_NAMES : [bound];
  const hosts = new Set([...names.map((n) => `${n}:${options.port}`), ...(options.allowedHosts ?? [])]);
  const origins = new Set([
    ...names.map((n) => `http://${n}:${options.port}`),
    ...(options.allowedOrigins ?? []),
  ]);
  const token = options.authToken === undefined ? undefined : Buffer.from(`Bearer ${options.authToken}`);

  return (headers) => {
    const host = headers.host;
    if (!host || !hosts.has(host.toLowerCase())) {
      return { ok: false, status: 403, message: `Host header ${JSON.stringify(host ?? '')} is not allowed` };
    }
    const origin = headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase())) {
      return { ok: false, status: 403, message: `Origin ${JSON.stringify(origin)} is not allowed` };
    }
    if (token) {
      const given = Buffer.from(headers.authorization ?? '');
      if (given.length !== token.length || !timingSafeEqual(given, token)) {
        return { ok: false, status: 401, message: errors.unauthorized().message };
      }
    }
    return { ok: true };
  };
}
