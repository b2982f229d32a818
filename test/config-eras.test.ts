// The configuration of both protocol eras: caching hints per plugin, the requestState key and lifetime, and
// whether 2025 clients are served; bad values name the key, the file, the line and what is allowed.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { ForesightError } from '../src/contract/index.js';
import { combinedHints, stricterHints } from '../src/protocol/index.js';

const FILE = '/proj/foresight.toml';

function failure(text: string, env: NodeJS.ProcessEnv = {}): ForesightError {
  try {
    parseConfig(text, FILE, '/proj', env);
  } catch (error) {
    if (error instanceof ForesightError) return error;
    throw error;
  }
  throw new Error('expected parseConfig to fail');
}

describe('caching hints per plugin', () => {
  it('default to stale at once and private; cache_ttl_ms and cache_scope set them', () => {
    const config = parseConfig(
      '[plugins.workspace]\nroot = "."\n\n[plugins.docs]\nuse = "workspace"\nroot = "docs"\ncache_ttl_ms = 600000\ncache_scope = "public"\n',
      FILE,
      '/proj',
      {},
    );
    expect(config.plugins.map((entry) => [entry.name, entry.cache])).toEqual([
      ['workspace', { ttlMs: 0, scope: 'private' }],
      ['docs', { ttlMs: 600_000, scope: 'public' }],
    ]);
    // The cache keys are the host's: they never reach the plugin's own options.
    expect(config.plugins[1]?.options).toEqual({ root: 'docs' });
  });

  it('refuses a negative or fractional TTL, one over a day, and an unknown scope, saying what is allowed', () => {
    expect(failure('[plugins.workspace]\ncache_ttl_ms = -1\n').message).toBe(
      `${FILE}:2: plugins.workspace.cache_ttl_ms: expected a whole number of milliseconds from 0 to 86400000, got -1`,
    );
    expect(failure('[plugins.workspace]\ncache_ttl_ms = 1.5\n').message).toMatch(
      /expected a whole number of milliseconds from 0 to 86400000/,
    );
    expect(failure('[plugins.workspace]\ncache_ttl_ms = 86400001\n').message).toMatch(
      /expected a whole number of milliseconds from 0 to 86400000/,
    );
    expect(failure('[plugins.workspace]\ncache_scope = "shared"\n').message).toBe(
      `${FILE}:2: plugins.workspace.cache_scope: expected one of "public", "private", got "shared"`,
    );
  });

  it('a list takes the shortest TTL of its plugins, and is public only when all of them are', () => {
    const hints = {
      a: { ttlMs: 60_000, scope: 'public' as const },
      b: { ttlMs: 5_000, scope: 'public' as const },
    };
    expect(combinedHints(['a', 'b'], (name) => hints[name as 'a' | 'b'])).toEqual({
      ttlMs: 5_000,
      scope: 'public',
    });
    expect(combinedHints(['a', 'unconfigured'], (name) => hints[name as 'a'])).toEqual({
      ttlMs: 0,
      scope: 'private',
    });
    expect(combinedHints([], () => undefined)).toEqual({ ttlMs: 0, scope: 'private' });
  });

  it("a source's hints only make ours stricter; what it leaves out, or says wrongly, loosens nothing", () => {
    const ours = { ttlMs: 60_000, scope: 'public' as const };
    expect(stricterHints(ours, [{ ttlMs: 5_000, cacheScope: 'private' }])).toEqual({
      ttlMs: 5_000,
      scope: 'private',
    });
    expect(stricterHints(ours, [{ ttlMs: 120_000, cacheScope: 'public' }, undefined, {}])).toEqual(ours);
    // A server's mistakes: a negative or non-numeric TTL is stale at once, an unknown scope private.
    const wrong = [{ ttlMs: -1 }, { ttlMs: '5' as unknown as number, cacheScope: 'shared' as 'public' }];
    expect(stricterHints(ours, wrong)).toEqual({ ttlMs: 0, scope: 'private' });
  });
});

describe('[server] for the eras', () => {
  it('serves 2025 clients unless told to refuse them, and keeps requestState for 300 s unless told otherwise', () => {
    const config = parseConfig(
      '[server]\nlegacy_clients = "reject"\nrequest_state_ttl_s = 60\n',
      FILE,
      '/proj',
      {},
    );
    expect(config.server).toMatchObject({ legacyClients: 'reject', requestStateTtlS: 60 });
    expect(parseConfig('', FILE, '/proj', {}).server).toMatchObject({
      legacyClients: 'serve',
      requestStateTtlS: 300,
    });
    expect(failure('[server]\nlegacy_clients = "maybe"\n').message).toBe(
      `${FILE}:2: server.legacy_clients: expected one of "serve", "reject", got "maybe"`,
    );
    expect(failure('[server]\nrequest_state_ttl_s = 0\n').message).toMatch(
      /expected a whole number of seconds from 1 to 86400,/,
    );
  });

  it('reads the requestState key from the variable it names, refusing an unset or short one without showing it', () => {
    const text = '[server]\nrequest_state_key_env = "STATE_KEY"\n';
    const unset = failure(text);
    expect(unset.code).toBe('E_SECRET_MISSING');
    expect(unset.message).toBe(
      `environment variable STATE_KEY (named by server.request_state_key_env in ${FILE}:2) is not set or empty`,
    );
    const short = failure(text, { STATE_KEY: 'sixteen-bytes!!!' });
    expect(short.code).toBe('E_CONFIG_INVALID');
    expect(short.message).toBe(
      `server.request_state_key_env in ${FILE}:2: STATE_KEY holds 16 bytes; the requestState key needs at least 32 (for example the output of \`openssl rand -base64 48\`)`,
    );
    expect(short.message).not.toContain('sixteen-bytes');
    const key = 'a'.repeat(32);
    expect(parseConfig(text, FILE, '/proj', { STATE_KEY: key }).server.requestStateKeyEnv).toBe('STATE_KEY');
  });
});
