// [cluster] in foresight.toml: the Redis URL is a secret read from a variable, the key prefix is checked, and the
// requestState key every process must share is required.
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_CLUSTER_KEY_PREFIX,
  DEFAULT_LEARNING_SYNC_MS,
  parseConfig,
  redactSecrets,
  resolveCluster,
} from '../src/config/index.js';

const FILE = '/proj/foresight.toml';
const KEY = 'k'.repeat(48);
const ENV = { FORESIGHT_REDIS_URL: 'redis://127.0.0.1:6379', FORESIGHT_RS_KEY: KEY };
const SERVER = '[server]\nrequest_state_key_env = "FORESIGHT_RS_KEY"\n';
const parse = (text: string, env: NodeJS.ProcessEnv = ENV) => parseConfig(text, FILE, '/proj', env);
const failure = (text: string, env: NodeJS.ProcessEnv = ENV) => {
  try {
    parse(text, env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected parseConfig to fail');
};

describe('[cluster]', () => {
  test('no [cluster]: none (one process, all in memory)', () => {
    expect(parse('').cluster).toBeUndefined();
    expect(resolveCluster(parse(''))).toBeUndefined();
  });

  test('the variable is named, the prefix defaults to "foresight:", and the URL is read from the environment', () => {
    const config = parse(`${SERVER}[cluster]\nredis_url_env = "FORESIGHT_REDIS_URL"\n`);
    expect(config.cluster).toEqual({
      redisUrlEnv: 'FORESIGHT_REDIS_URL',
      keyPrefix: DEFAULT_CLUSTER_KEY_PREFIX,
      claimTimeoutS: 10,
      learningSyncMs: DEFAULT_LEARNING_SYNC_MS,
    });
    expect(DEFAULT_CLUSTER_KEY_PREFIX).toBe('foresight:');
    expect(DEFAULT_LEARNING_SYNC_MS).toBe(5_000);
    expect(resolveCluster(config, ENV)).toEqual({
      redisUrl: 'redis://127.0.0.1:6379',
      keyPrefix: 'foresight:',
      claimTimeoutS: 10,
    });
  });

  test('claim_timeout_s: its own value, or a config error naming the key and the allowed range', () => {
    const own = parse(`${SERVER}[cluster]\nredis_url_env = "FORESIGHT_REDIS_URL"\nclaim_timeout_s = 3\n`);
    expect(own.cluster?.claimTimeoutS).toBe(3);
    for (const value of ['0', '2.5', '301', '"10"'])
      expect(
        failure(`${SERVER}[cluster]\nredis_url_env = "FORESIGHT_REDIS_URL"\nclaim_timeout_s = ${value}\n`),
      ).toMatch(new RegExp(`^${FILE}:5: cluster\\.claim_timeout_s: `));
  });

  test('a key prefix of its own', () => {
    const config = parse(
      `${SERVER}[cluster]\nredis_url_env = "FORESIGHT_REDIS_URL"\nkey_prefix = "team-a:foresight:"\n`,
    );
    expect(config.cluster?.keyPrefix).toBe('team-a:foresight:');
  });

  test('learning_sync_ms: how often learned counts are shared, from 100 ms to an hour', () => {
    const config = parse(
      `${SERVER}[cluster]\nredis_url_env = "FORESIGHT_REDIS_URL"\nlearning_sync_ms = 250\n`,
    );
    expect(config.cluster?.learningSyncMs).toBe(250);
    expect(
      failure(`${SERVER}[cluster]\nredis_url_env = "FORESIGHT_REDIS_URL"\nlearning_sync_ms = 10\n`),
    ).toMatch(new RegExp(`^${FILE}:5: cluster\\.learning_sync_ms: `));
  });

  test('an empty prefix or one with a space is refused, naming the key and what is allowed', () => {
    for (const prefix of ['', 'team a:'])
      expect(
        failure(`${SERVER}[cluster]\nredis_url_env = "FORESIGHT_REDIS_URL"\nkey_prefix = "${prefix}"\n`),
      ).toMatch(new RegExp(`^${FILE}:5: cluster\\.key_prefix: expected a non-empty prefix without spaces`));
  });

  test('redis_url_env is required, and must be a variable name', () => {
    expect(failure(`${SERVER}[cluster]\n`)).toMatch(new RegExp(`^${FILE}:3: cluster\\.redis_url_env: `));
    expect(failure(`${SERVER}[cluster]\nredis_url_env = "redis://x"\n`)).toMatch(
      /cluster\.redis_url_env: expected an environment variable name/,
    );
    expect(failure(`${SERVER}[cluster]\nredis_url_env = "FORESIGHT_REDIS_URL"\nurl = "x"\n`)).toMatch(
      /cluster\.url: unknown key "url"; allowed: redis_url_env, key_prefix/,
    );
  });

  test('an unset variable fails at load, naming the variable and the key with its line', () => {
    const message = failure(`${SERVER}[cluster]\nredis_url_env = "NOT_SET_HERE"\n`);
    expect(message).toBe(
      `environment variable NOT_SET_HERE (named by cluster.redis_url_env in ${FILE}:4) is not set or empty`,
    );
  });

  test('a variable holding no redis URL is refused without quoting it', () => {
    for (const value of ['http://user:hunter2secret@cache:6379', 'not a url hunter2secret']) {
      const message = failure(`${SERVER}[cluster]\nredis_url_env = "FORESIGHT_REDIS_URL"\n`, {
        ...ENV,
        FORESIGHT_REDIS_URL: value,
      });
      expect(message).toMatch(
        /cluster\.redis_url_env in .*: FORESIGHT_REDIS_URL (holds a http URL|does not hold a URL)/,
      );
      expect(message).not.toContain('hunter2secret');
    }
  });

  test('[cluster] without server.request_state_key_env is refused, naming both keys', () => {
    const message = failure('[cluster]\nredis_url_env = "FORESIGHT_REDIS_URL"\n');
    expect(message).toMatch(/server\.request_state_key_env: missing: \[cluster\] needs it/);
    expect(message).toMatch(/requestState/);
  });

  test('the URL, its password and the AUTH credential are redacted wherever they appear', () => {
    const url = 'rediss://app:s3cr%40t-pass-9@redis.internal:6380/2';
    const config = parse(`${SERVER}[cluster]\nredis_url_env = "FORESIGHT_REDIS_URL"\n`, {
      ...ENV,
      FORESIGHT_REDIS_URL: url,
    });
    expect(resolveCluster(config, { FORESIGHT_REDIS_URL: url })?.redisUrl).toBe(url);
    const leaked = `url ${url}; password s3cr@t-pass-9; encoded s3cr%40t-pass-9; basic ${Buffer.from('app:s3cr@t-pass-9').toString('base64')}`;
    const redacted = redactSecrets(leaked);
    expect(redacted).not.toContain('s3cr');
    expect(redacted).not.toContain(Buffer.from('app:s3cr@t-pass-9').toString('base64'));
  });
});
