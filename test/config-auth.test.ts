import { describe, expect, test } from 'vitest';
import { isAuthenticated, parseConfig } from '../src/config/index.js';

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
