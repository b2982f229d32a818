// The Redis URL of [cluster], read from the variable cluster.redis_url_env names: a secret in every form it travels.
import { errors } from '../contract/index.js';
import { registerBasicCredential, registerSecret } from './redact.js';
import { readSecret } from './secrets.js';
import type { ForesightConfig } from './types.js';

/** [cluster] as the processes take it: the Redis URL read from its variable (and registered for redaction). */
export interface ResolvedCluster {
  redisUrl: string;
  keyPrefix: string;
  claimTimeoutS: number;
}

/**
 * `config.cluster` with the Redis URL read from cluster.redis_url_env; undefined without [cluster]. Throws
 * E_SECRET_MISSING when the variable is unset and E_CONFIG_INVALID when it holds no redis:// or rediss:// URL; both
 * name the variable, never its value. The password (and `user:password`, what AUTH sends) is registered apart from
 * the URL, since a client library may quote it alone.
 */
export function resolveCluster(
  config: ForesightConfig,
  env: NodeJS.ProcessEnv = process.env,
  where = config.file === undefined ? 'cluster.redis_url_env' : `cluster.redis_url_env in ${config.file}`,
): ResolvedCluster | undefined {
  if (config.cluster === undefined) return undefined;
  const { redisUrlEnv, keyPrefix, claimTimeoutS } = config.cluster;
  const redisUrl = readSecret(redisUrlEnv, where, env);
  let url: URL;
  try {
    url = new URL(redisUrl);
  } catch {
    throw errors.configInvalid(
      where,
      `${redisUrlEnv} does not hold a URL; expected redis://[user:password@]host:port[/db] or rediss://…`,
    );
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw errors.configInvalid(
      where,
      `${redisUrlEnv} holds a ${url.protocol.replace(/:$/, '')} URL; expected redis://[user:password@]host:port[/db] or rediss://…`,
    );
  if (url.password !== '') {
    const password = decodeURIComponent(url.password);
    registerSecret(url.password);
    registerBasicCredential(decodeURIComponent(url.username) || 'default', password);
  }
  return { redisUrl, keyPrefix, claimTimeoutS };
}

/**
 * What a log or a check line may say about where Redis is: `host:port`, with " (TLS)" for rediss. Never the
 * credentials, and never the scheme either: the whole URL is registered as a secret, and a URL without credentials
 * ("redis://10.0.0.5:6379") would otherwise be redacted from the very line meant to say where Redis is.
 */
export function redisEndpoint(redisUrl: string): string {
  try {
    const url = new URL(redisUrl);
    return `${url.host}${url.protocol === 'rediss:' ? ' (TLS)' : ''}`;
  } catch {
    return 'redis';
  }
}
