// The [cluster] table: several Foresight processes behind one load balancer share state through one Redis.
import { durationMs, durationS } from '../contract/index.js';
import { closedTable, matching } from './leaf-schemas.js';
import { ENV_NAME_PATTERN } from './schema-server.js';

/** What keys and channels start with when the file says nothing. */
export const DEFAULT_CLUSTER_KEY_PREFIX = 'foresight:';

/** How often each process pushes its learned follow-up counts to Redis and reads the totals back. */
export const DEFAULT_LEARNING_SYNC_MS = 5_000;

export interface ClusterConfig {
  /** The environment variable holding the Redis URL (`redis://` or `rediss://`): a secret, it may hold a password. */
  redisUrlEnv: string;
  /** What every key and pub/sub channel starts with, so several deployments can share one Redis; default "foresight:". */
  keyPrefix: string;
  /**
   * `claim_timeout_s`: how long a call run ahead holds its claim. A process whose agent asks for the same call waits
   * at most this long for the claim holder's result (a holder that died lets it go then); default 10 s.
   */
  claimTimeoutS: number;
  /** How often the planner's learned counts are pushed and read back, in ms; default 5000. */
  learningSyncMs: number;
}

/** Long enough for a slow tracker search, short enough that a dead claim holder costs one wait at most. */
export const DEFAULT_CLAIM_TIMEOUT_S = 10;
/** A claim longer than this would only hide a dead holder. */
export const MAX_CLAIM_TIMEOUT_S = 300;

export const ClusterConfigSchema = closedTable({
  redis_url_env: matching(ENV_NAME_PATTERN, 'an environment variable name such as "FORESIGHT_REDIS_URL"'),
  // No whitespace: a prefix is pasted into `redis-cli --scan --pattern` and log lines, where a space splits it.
  key_prefix: matching(/^\S+$/, 'a non-empty prefix without spaces such as "foresight:"').default(
    DEFAULT_CLUSTER_KEY_PREFIX,
  ),
  claim_timeout_s: durationS({ min: 1, max: MAX_CLAIM_TIMEOUT_S }).default(DEFAULT_CLAIM_TIMEOUT_S),
  learning_sync_ms: durationMs({ min: 100, max: 3_600_000 }).default(DEFAULT_LEARNING_SYNC_MS),
}).transform((raw): ClusterConfig => ({
  redisUrlEnv: raw.redis_url_env,
  keyPrefix: raw.key_prefix,
  claimTimeoutS: raw.claim_timeout_s,
  learningSyncMs: raw.learning_sync_ms,
}));
