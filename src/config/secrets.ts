// Secrets come from environment variables that the config names (`token_env = "GITHUB_TOKEN"`), never from the file.
import { errors } from '../contract/index.js';
import { registerSecret } from './redact.js';
import type { AuthConfig } from './schema-auth.js';
import type { ForesightConfig } from './types.js';

/**
 * The value of `variable`, registered for redaction. Throws E_SECRET_MISSING naming the variable and
 * `key`, the config key that named it (e.g. "plugins.gh.token_env"); the message never holds a value.
 */
export function readSecret(variable: string, key: string, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[variable];
  if (value === undefined || value === '') throw errors.secretMissing(variable, key);
  registerSecret(value);
  return value;
}

/**
 * Whether HTTP clients must prove who they are: with the static bearer token (server.auth_token_env) or an OAuth
 * access token ([auth]); the listener's safe default follows.
 */
export function isAuthenticated(config: ForesightConfig): boolean {
  return config.server.authTokenEnv !== undefined || config.auth !== undefined;
}

/** The bearer token HTTP clients must send, from server.auth_token_env; undefined when none is configured. */
export function resolveAuthToken(
  config: ForesightConfig,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const variable = config.server.authTokenEnv;
  if (variable === undefined) return undefined;
  const key = config.file === undefined ? 'server.auth_token_env' : `server.auth_token_env in ${config.file}`;
  return readSecret(variable, key, env);
}

/** [auth] as the HTTP server takes it: the introspection client secret read from its variable (and registered). */
export type ResolvedAuth = Omit<AuthConfig, 'introspection'> & {
  introspection?: { endpoint?: string; clientId: string; clientSecret: string };
};

/**
 * `config.auth` with the introspection client secret read from auth.introspection_client_secret_env; throws
 * E_SECRET_MISSING naming the variable (never a value) when it is unset.
 */
export function resolveAuth(
  config: ForesightConfig,
  env: NodeJS.ProcessEnv = process.env,
  where = config.file === undefined
    ? 'auth.introspection_client_secret_env'
    : `auth.introspection_client_secret_env in ${config.file}`,
): ResolvedAuth | undefined {
  if (config.auth === undefined) return undefined;
  const { introspection, ...auth } = config.auth;
  if (introspection === undefined) return auth;
  const { clientSecretEnv, ...client } = introspection;
  return { ...auth, introspection: { ...client, clientSecret: readSecret(clientSecretEnv, where, env) } };
}

/** The shortest requestState key accepted: what HMAC-SHA256 needs to be as strong as its hash. */
export const MIN_REQUEST_STATE_KEY_BYTES = 32;

/**
 * The key that signs requestState, from server.request_state_key_env; undefined when none is configured (each
 * process then makes its own). Throws naming the variable, never its value, when it is unset or too short.
 */
export function resolveRequestStateKey(
  config: ForesightConfig,
  env: NodeJS.ProcessEnv = process.env,
  where = config.file === undefined
    ? 'server.request_state_key_env'
    : `server.request_state_key_env in ${config.file}`,
): string | undefined {
  const variable = config.server.requestStateKeyEnv;
  if (variable === undefined) return undefined;
  const value = readSecret(variable, where, env);
  const bytes = Buffer.byteLength(value);
  if (bytes < MIN_REQUEST_STATE_KEY_BYTES)
    throw errors.configInvalid(
      where,
      `${variable} holds ${bytes} bytes; the requestState key needs at least ${MIN_REQUEST_STATE_KEY_BYTES} (for example the output of \`openssl rand -base64 48\`)`,
    );
  return value;
}
