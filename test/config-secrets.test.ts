import { describe, expect, test } from 'vitest';
import {
  parseConfig,
  readSecret,
  redactSecrets,
  registerSecret,
  resolveAuthToken,
} from '../src/config/index.js';
import { ForesightError } from '../src/contract/index.js';

const FILE = '/proj/foresight.toml';

function thrown(run: () => unknown): ForesightError {
  try {
    run();
  } catch (error) {
    if (error instanceof ForesightError) return error;
    throw error;
  }
  throw new Error('expected a throw');
}

describe('readSecret', () => {
  test('returns the value and registers it for redaction', () => {
    const value = readSecret('GH_TOKEN', 'plugins.gh.token_env', { GH_TOKEN: 'ghp_first_secret_value' });
    expect(value).toBe('ghp_first_secret_value');
    expect(redactSecrets('Authorization: token ghp_first_secret_value!')).toBe(
      'Authorization: token [redacted]!',
    );
  });

  test.each([undefined, ''])('a missing or empty variable (%j) names the variable and the key', (value) => {
    const env = { OTHER_TOKEN: 'other-secret-9f8e7d', ...(value === undefined ? {} : { GH_TOKEN: value }) };
    readSecret('OTHER_TOKEN', 'plugins.other.token_env', env);
    const error = thrown(() => readSecret('GH_TOKEN', 'plugins.gh.token_env', env));
    expect(error.code).toBe('E_SECRET_MISSING');
    expect(error.message).toBe(
      'environment variable GH_TOKEN (named by plugins.gh.token_env) is not set or empty',
    );
    expect(error.message).not.toContain('other-secret-9f8e7d');
  });
});

describe('redaction', () => {
  test('replaces every occurrence of every registered secret, longest first', () => {
    registerSecret('abcd-1234');
    registerSecret('abcd-1234-extended');
    expect(redactSecrets('a=abcd-1234 b=abcd-1234-extended c=abcd-1234')).toBe(
      'a=[redacted] b=[redacted] c=[redacted]',
    );
  });

  test('ignores values too short to redact safely', () => {
    registerSecret('ab');
    expect(redactSecrets('tab stab')).toBe('tab stab');
  });

  test('config messages are redacted even when a secret appears in the file', () => {
    registerSecret('leaked-secret-5150');
    const error = thrown(() =>
      parseConfig('[server]\nlog_level = "leaked-secret-5150"\n', FILE, '/proj', {}),
    );
    expect(error.message).toBe(
      `${FILE}:2: server.log_level: expected one of "trace", "debug", "info", "warn", "error", "fatal", "silent", got "[redacted]"`,
    );
  });
});

describe('the HTTP bearer token', () => {
  const text = '[server]\ntransport = "http"\nauth_token_env = "FORESIGHT_TOKEN"\n';

  test('resolveAuthToken reads the variable named by server.auth_token_env and registers it', () => {
    const env = { FORESIGHT_TOKEN: 'bearer-value-31337' };
    const config = parseConfig(text, FILE, '/proj', env);
    expect(config.server.authTokenEnv).toBe('FORESIGHT_TOKEN');
    expect(JSON.stringify(config)).not.toContain('bearer-value-31337');
    expect(resolveAuthToken(config, env)).toBe('bearer-value-31337');
    expect(redactSecrets('token bearer-value-31337')).toBe('token [redacted]');
  });

  test('undefined when no token is configured', () => {
    expect(resolveAuthToken(parseConfig('', FILE, '/proj', {}), {})).toBeUndefined();
  });

  test('an unset variable fails at load with transport http, naming variable, key and line', () => {
    const error = thrown(() => parseConfig(text, FILE, '/proj', { OTHER: 'unrelated-secret-value' }));
    expect(error.code).toBe('E_SECRET_MISSING');
    expect(error.message).toBe(
      `environment variable FORESIGHT_TOKEN (named by server.auth_token_env in ${FILE}:3) is not set or empty`,
    );
  });

  test('with transport stdio the variable is only needed when resolved', () => {
    const config = parseConfig('[server]\nauth_token_env = "FORESIGHT_TOKEN"\n', FILE, '/proj', {});
    expect(() => resolveAuthToken(config, {})).toThrow(
      `environment variable FORESIGHT_TOKEN (named by server.auth_token_env in ${FILE}) is not set or empty`,
    );
  });

  test('a bad variable name is a config error', () => {
    expect(() => parseConfig('[server]\nauth_token_env = "my token"\n', FILE, '/proj', {})).toThrow(
      `${FILE}:2: server.auth_token_env: expected an environment variable name such as "FORESIGHT_TOKEN", got "my token"`,
    );
  });

  test("an enabled plugin's *_env option must name a set variable, whose value is then redacted", () => {
    const text =
      '[plugins.gh]\nuse = "github"\ntoken_env = "GH_PLUGIN_TOKEN"\n\n[plugins.off]\nenabled = false\ntoken_env = "UNSET_BUT_DISABLED"\n';
    const error = thrown(() => parseConfig(text, FILE, '/proj', {}));
    expect(error.code).toBe('E_SECRET_MISSING');
    expect(error.message).toBe(
      `environment variable GH_PLUGIN_TOKEN (named by plugins.gh.token_env in ${FILE}:3) is not set or empty`,
    );
    const config = parseConfig(text, FILE, '/proj', { GH_PLUGIN_TOKEN: 'plugin-token-value-42' });
    expect(config.plugins[0]?.options).toEqual({ token_env: 'GH_PLUGIN_TOKEN' });
    expect(redactSecrets('sent plugin-token-value-42')).toBe('sent [redacted]');
  });
});
