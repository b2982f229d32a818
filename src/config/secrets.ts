// Secrets come from environment variables that the config names (`token_env = "GITHUB_TOKEN"`), never from the file.
import { errors } from '../host/index.js';
import { registerSecret } from './redact.js';
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
