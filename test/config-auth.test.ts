import { describe, expect, test } from 'vitest';
import { isAuthenticated, parseConfig, redactSecrets, resolveAuth } from '../src/config/index.js';

const FILE = '/proj/foresight.toml';
const parse = (text: string) => parseConfig(text, FILE, '/proj', {});
const failure = (text: string) => {
  try {
    parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected parseConfig to fail');
};

describe('[auth]: the OAuth resource server settings', () => {
  test('defaults: safe algorithms, 30 s of skew, discovery of the key set', () => {
    const config = parse(
      '[auth]\nissuer = "https://auth.example.com"\naudience = "https://mcp.example.com/mcp"\n',
    );
    expect(config.auth).toEqual({
      issuer: 'https://auth.example.com',
      audience: 'https://mcp.example.com/mcp',
      algorithms: ['RS256', 'ES256', 'PS256', 'EdDSA'],
      clockSkewS: 30,
    });
    expect(isAuthenticated(config)).toBe(true);
  });

  test('every key given', () => {
    const config = parse(
      '[auth]\nissuer = "https://auth.example.com/tenant"\naudience = "api://foresight"\n' +
        'jwks_uri = "https://auth.example.com/keys"\nalgorithms = ["ES256"]\nclock_skew_s = 5\nscopes_supported = ["mcp:tools"]\n',
    );
    expect(config.auth).toEqual({
      issuer: 'https://auth.example.com/tenant',
      audience: 'api://foresight',
      jwksUri: 'https://auth.example.com/keys',
      algorithms: ['ES256'],
      clockSkewS: 5,
      scopesSupported: ['mcp:tools'],
    });
  });

  test('no [auth]: none, and no authentication', () => {
    const config = parse('[server]\ntransport = "http"\n');
    expect(config.auth).toBeUndefined();
    expect(isAuthenticated(config)).toBe(false);
  });

  test('"none" and HS256 are not algorithms a token may use', () => {
    for (const alg of ['none', 'HS256'])
      expect(
        failure(`[auth]\nissuer = "https://a.example"\naudience = "x"\nalgorithms = ["RS256", "${alg}"]\n`),
      ).toMatch(new RegExp(`^${FILE}:4: auth\\.algorithms\\[1\\]: expected one of "RS256", .*got "${alg}"`));
  });

  test('missing audience, bad issuer and unknown keys name the file and line', () => {
    expect(failure('[auth]\nissuer = "https://a.example"\n')).toMatch(
      new RegExp(`^${FILE}:1: auth\\.audience: `),
    );
    expect(failure('[auth]\nissuer = "auth.example"\naudience = "x"\n')).toMatch(
      new RegExp(`^${FILE}:2: auth\\.issuer: expected an http\\(s\\) URL`),
    );
    expect(failure('[auth]\nissuer = "https://a.example"\naudience = "x"\naudiance = "y"\n')).toMatch(
      new RegExp(`^${FILE}:4: auth\\.audiance: unknown key "audiance" \\(did you mean "audience"\\?\\)`),
    );
  });

  test('[auth] and server.auth_token_env together are refused, at the token line', () => {
    const text =
      '[server]\ntransport = "http"\nauth_token_env = "FORESIGHT_TOKEN"\n\n[auth]\nissuer = "https://a.example"\naudience = "x"\n';
    expect(failure(text)).toMatch(
      new RegExp(`^${FILE}:3: server\\.auth_token_env: cannot be set together with \\[auth\\]`),
    );
  });
});

describe('[auth] token introspection (RFC 7662) for opaque tokens', () => {
  const BASE = '[auth]\nissuer = "https://auth.example.com"\naudience = "https://mcp.example.com/mcp"\n';
  const SECRET = 'introspection-secret-value-123';

  test('client id and secret variable: the endpoint is discovered unless given; the secret is read from the environment', () => {
    const discovered = parse(
      `${BASE}introspection_client_id = "foresight"\nintrospection_client_secret_env = "FS_INTROSPECT"\n`,
    );
    expect(discovered.auth?.introspection).toEqual({
      clientId: 'foresight',
      clientSecretEnv: 'FS_INTROSPECT',
    });
    const given = parse(
      `${BASE}introspection_endpoint = "https://auth.example.com/oauth/introspect"\n` +
        'introspection_client_id = "foresight"\nintrospection_client_secret_env = "FS_INTROSPECT"\n',
    );
    expect(resolveAuth(given, { FS_INTROSPECT: SECRET })?.introspection).toEqual({
      endpoint: 'https://auth.example.com/oauth/introspect',
      clientId: 'foresight',
      clientSecret: SECRET,
    });
    // Read through readSecret: registered for redaction like every other secret.
    expect(redactSecrets(`secret ${SECRET}`)).toBe('secret [redacted]');
    expect(resolveAuth(parse(BASE))).toEqual(parse(BASE).auth);
  });

  test('the client id and the secret variable come together, and the endpoint needs both', () => {
    expect(failure(`${BASE}introspection_client_id = "foresight"\n`)).toMatch(
      new RegExp(
        `^${FILE}:\\d+: auth\\.introspection_client_secret_env: missing: introspection_client_id needs`,
      ),
    );
    expect(failure(`${BASE}introspection_client_secret_env = "FS_INTROSPECT"\n`)).toMatch(
      /auth\.introspection_client_id: missing: introspection_client_secret_env needs the client id/,
    );
    expect(failure(`${BASE}introspection_endpoint = "https://auth.example.com/introspect"\n`)).toMatch(
      /auth\.introspection_client_id: missing: introspection_endpoint needs introspection_client_id and introspection_client_secret_env/,
    );
  });

  test('a bad endpoint or variable name says what is allowed', () => {
    const keys = 'introspection_client_id = "foresight"\nintrospection_client_secret_env = "FS_INTROSPECT"\n';
    expect(failure(`${BASE}introspection_endpoint = "ftp://auth.example.com/introspect"\n${keys}`)).toMatch(
      new RegExp(`^${FILE}:4: auth\\.introspection_endpoint: expected an http\\(s\\) URL`),
    );
    expect(
      failure(
        `${BASE}introspection_client_id = "foresight"\nintrospection_client_secret_env = "not a name"\n`,
      ),
    ).toMatch(/auth\.introspection_client_secret_env: expected an environment variable name/);
  });

  test('an HTTP server fails at load when the secret variable is unset, naming it and the key, never a value', () => {
    const text =
      `[server]\ntransport = "http"\n\n${BASE}` +
      'introspection_client_id = "foresight"\nintrospection_client_secret_env = "FS_INTROSPECT_UNSET"\n';
    expect(() => parseConfig(text, FILE, '/proj', {})).toThrow(
      /FS_INTROSPECT_UNSET.*auth\.introspection_client_secret_env in \/proj\/foresight\.toml:8/,
    );
    expect(
      parseConfig(text, FILE, '/proj', { FS_INTROSPECT_UNSET: SECRET }).auth?.introspection?.clientId,
    ).toBe('foresight');
  });
});

describe('[auth.scopes]: the scopes tools need', () => {
  const AUTH = '[auth]\nissuer = "https://a.example"\naudience = "x"\n\n[auth.scopes]\n';

  test('one scope for every call, or read and write; each entry keeps its line', () => {
    const config = parse(
      `${AUTH}"gh__*" = "repo:read"\n"workspace__*" = { read = "files:read", write = "files:write" }\n"jira__*" = { write = "jira:write" }\n`,
    );
    expect(config.auth?.toolScopes).toEqual([
      { glob: 'gh__*', read: 'repo:read', write: undefined, line: 6 },
      { glob: 'workspace__*', read: 'files:read', write: 'files:write', line: 7 },
      { glob: 'jira__*', read: undefined, write: 'jira:write', line: 8 },
    ]);
  });

  test('an empty [auth.scopes] guards nothing', () => {
    expect(parse(AUTH).auth?.toolScopes).toBeUndefined();
  });

  test('a scope with a space or a quote, an empty table, an unknown key and a negated glob name the key', () => {
    expect(failure(`${AUTH}"gh__*" = "repo:read repo:write"\n`)).toMatch(
      new RegExp(
        `^${FILE}:6: auth\\.scopes\\."gh__\\*": expected one scope such as "repo:read" \\(no spaces or quotes\\)`,
      ),
    );
    expect(failure(`${AUTH}"gh__*" = {}\n`)).toMatch(
      new RegExp(`^${FILE}:6: auth\\.scopes\\."gh__\\*": expected read, write or both`),
    );
    expect(failure(`${AUTH}"gh__*" = { reed = "repo:read" }\n`)).toContain(
      `${FILE}:6: auth.scopes."gh__*".reed: unknown key "reed"`,
    );
    expect(failure(`${AUTH}"!gh__*" = "repo:read"\n`)).toMatch(
      new RegExp(`^${FILE}:6: auth\\.scopes\\."!gh__\\*": expected a glob over published tool names`),
    );
    expect(failure(`${AUTH}"gh__*" = 3\n`)).toMatch(
      new RegExp(`^${FILE}:6: auth\\.scopes\\."gh__\\*": expected one scope such as "repo:read", or a table`),
    );
  });
});
