// The safe default of an HTTP listener: beyond loopback, clients must authenticate unless the risk is accepted.
import { errors } from '../contract/index.js';
import { hostForUrl, isLoopbackHost } from './listen-address.js';

export interface ExposurePolicy {
  /** Whether clients must prove who they are (a bearer token today). */
  authenticated: boolean;
  /** Serve unauthenticated beyond loopback anyway. */
  allowUnauthenticated: boolean;
}

/** How the refusal names its source and the two settings that lift it (config keys, or an embedder's options). */
export interface ExposureSettings {
  where: string;
  auth: string;
  allow: string;
}

/**
 * Throws E_CONFIG_INVALID when `host:port` is reachable from other machines and nobody would need to authenticate;
 * returns "accepted" when that was allowed (the caller warns), else "guarded" (loopback, or clients authenticate).
 */
export function checkExposure(
  address: { host: string; port: number },
  policy: ExposurePolicy,
  settings: ExposureSettings,
): 'guarded' | 'accepted' {
  if (isLoopbackHost(address.host) || policy.authenticated) return 'guarded';
  if (policy.allowUnauthenticated) return 'accepted';
  throw errors.configInvalid(
    settings.where,
    `refusing to serve HTTP on ${hostForUrl(address.host)}:${address.port} without authentication: that address is reachable from other machines, and anyone who reaches it could call every tool. Set ${settings.auth}, or ${settings.allow} to accept the risk (or listen on 127.0.0.1)`,
  );
}
