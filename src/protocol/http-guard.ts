// Request checks before any MCP handling: Host/Origin against DNS rebinding, and the optional bearer token.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { errors } from '../contract/index.js';
import { type InterfaceAddresses, isWildcardHost, reachableNames } from './listen-address.js';

export interface HttpGuardOptions {
  /** The address listened on; a wildcard (0.0.0.0, ::) accepts the machine's own addresses. */
  host: string;
  /** The port really bound (not 0). */
  port: number;
  /** Extra Host header values to accept (e.g. "my-box.local:3000"). */
  allowedHosts?: readonly string[];
  /** Extra Origin values to accept (e.g. "https://app.example"). */
  allowedOrigins?: readonly string[];
  /** When set, every request needs `Authorization: Bearer <token>`. */
  authToken?: string;
  /** The machine's interface addresses, for a wildcard bind; default os.networkInterfaces(). */
  interfaces?: InterfaceAddresses;
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

/** A Host header's host alone: its port dropped, an IPv6 address out of its brackets. */
function hostnameOf(host: string): string {
  return host.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
}

export function createHttpGuard(options: HttpGuardOptions): (headers: IncomingHttpHeaders) => GuardVerdict {
  const wildcard = isWildcardHost(options.host);
  // A client that sends the wildcard as its Host is confused at best: no connection goes to 0.0.0.0 or [::].
  const notWildcard = (value: string) => !isWildcardHost(hostnameOf(value));
  let hosts = new Set<string>();
  let origins = new Set<string>();
  const learnNames = () => {
    const names = reachableNames(options.host, options.interfaces);
    hosts = new Set(
      [...names.map((n) => `${n}:${options.port}`), ...(options.allowedHosts ?? [])]
        .map((h) => h.toLowerCase())
        .filter(notWildcard),
    );
    origins = new Set([
      ...names.map((n) => `http://${n}:${options.port}`),
      ...(options.allowedOrigins ?? []).map((o) => o.toLowerCase()),
    ]);
  };
  learnNames();
  /**
   * Whether `host` is allowed; for an unknown IP address a wildcard bind reads the interfaces again first (it may
   * have come up since). A name never becomes an interface address, so a rebinding attack's names cost no read.
   */
  const knownHost = (host: string) => {
    if (hosts.has(host)) return true;
    if (!wildcard || isIP(hostnameOf(host)) === 0) return false;
    learnNames();
    return hosts.has(host);
  };
  const token = options.authToken === undefined ? undefined : Buffer.from(`Bearer ${options.authToken}`);

  return (headers) => {
    const host = headers.host;
    if (!host || !knownHost(host.toLowerCase())) {
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
