// What an HTTP listen address exposes: loopback only, every interface (a wildcard), or one address; and the names
// by which a client on this machine or the network really reaches it.
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/** The machine's interface addresses (IPv4 dotted, IPv6 without brackets); injectable for tests of the guard. */
export type InterfaceAddresses = () => readonly { address: string; family: 'IPv4' | 'IPv6' }[];

export const systemInterfaces: InterfaceAddresses = () =>
  Object.values(networkInterfaces()).flatMap((entries) =>
    (entries ?? []).map(({ address, family }) => ({ address, family })),
  );

const unbracketed = (host: string) => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost`: only this machine can connect. */
export function isLoopbackHost(host: string): boolean {
  const bare = unbracketed(host);
  if (bare === 'localhost' || bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice('::ffff:'.length) : bare;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/** 0.0.0.0 or :: (any spelling): the listener takes connections on every interface. */
export function isWildcardHost(host: string): boolean {
  const bare = unbracketed(host);
  return bare === '0.0.0.0' || (isIP(bare) === 6 && /^[0:]+$/.test(bare));
}

/** An IPv6 address in brackets, as it is written in a URL or a Host header. */
export function hostForUrl(host: string): string {
  return isIP(unbracketed(host)) === 6 ? `[${unbracketed(host)}]` : host.toLowerCase();
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The host names (no port) a client can use to reach a listener bound to `host`: for loopback, the loopback names;
 * for a wildcard, those and the machine's own addresses (IPv4 only for 0.0.0.0, which takes no IPv6); for any other
 * address, that address alone. Never the wildcard itself: it is no destination a client can connect to.
 */
export function reachableNames(host: string, interfaces: InterfaceAddresses = systemInterfaces): string[] {
  if (isLoopbackHost(host)) return [...new Set([...LOOPBACK_NAMES, hostForUrl(host)])];
  if (!isWildcardHost(host)) return [hostForUrl(host)];
  const ipv4Only = unbracketed(host) === '0.0.0.0';
  const own = interfaces()
    .filter(({ family }) => family === 'IPv4' || !ipv4Only)
    .map(({ address }) => hostForUrl(address));
  return [...new Set([...LOOPBACK_NAMES, ...own])];
}

/** A URL host for clients of this machine: a wildcard bind is reached through loopback, not at 0.0.0.0 or [::]. */
export function localUrlHost(host: string): string {
  if (!isWildcardHost(host)) return hostForUrl(host);
  return unbracketed(host) === '0.0.0.0' ? '127.0.0.1' : '[::1]';
}
