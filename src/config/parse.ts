// Parses and validates foresight.toml text: TOML syntax, then the schemas, then the checks that need the environment.
import { parse as parseToml, TomlError } from 'smol-toml';
import { errors } from '../contract/index.js';
import { type BeneathTables, layBeneath } from './beneath.js';
import { buildConfig } from './build.js';
import { resolveCluster } from './cluster-secrets.js';
import { lineOfKeyPath, type KeyLines } from './key-path.js';
import { locateKeys } from './locate.js';
import { configProblemsError, fileSource, problemsFromIssues } from './problems.js';
import { ConfigFileSchema } from './schema-file.js';
import { readSecret, resolveAuth, resolveRequestStateKey } from './secrets.js';
import type { ForesightConfig } from './types.js';

/**
 * The configuration in `text`. `fileName` is how messages name the file; relative paths in it resolve
 * against `baseDir`. With transport "http", the variable named by server.auth_token_env must be set
 * (its value is registered for redaction, not kept), and so must every variable an enabled plugin's
 * `*_env` option names, unless `checkSecrets` is false (for commands that start no plugin). `beneath`: tables
 * from another file (a devboy-tools pipeline config, mapped) that the file's own keys override. Throws
 * E_CONFIG_SYNTAX, E_CONFIG_INVALID or E_SECRET_MISSING.
 */
export function parseConfig(
  text: string,
  fileName: string,
  baseDir: string,
  env: NodeJS.ProcessEnv = process.env,
  { checkSecrets = true, beneath }: { checkSecrets?: boolean; beneath?: BeneathTables } = {},
): ForesightConfig {
  const own = parseTomlText(text, fileName);
  const table = beneath === undefined ? own : layBeneath(own, beneath);
  const keyLines = locateKeys(text);
  const result = ConfigFileSchema.safeParse(table, { reportInput: true });
  if (!result.success) {
    throw configProblemsError(
      fileSource(fileName, keyLines),
      problemsFromIssues(result.error.issues, ConfigFileSchema),
    );
  }
  const config = buildConfig(result.data, { file: fileName, baseDir, keyLines });
  if (checkSecrets) {
    checkAuthToken(config, fileName, keyLines, env);
    checkRequestStateKey(config, fileName, keyLines, env);
    checkIntrospectionSecret(config, fileName, keyLines, env);
    checkPluginSecrets(config, fileName, keyLines, env);
    checkClusterUrl(config, fileName, keyLines, env);
  }
  return config;
}

/** The TOML table `text` holds; throws E_CONFIG_SYNTAX naming `fileName`, the line and the column. */
export function parseTomlText(text: string, fileName: string): Record<string, unknown> {
  try {
    // "__proto__" and "constructor" keys are refused rather than kept: they have no use here.
    return parseToml(text, { unsafeKeyBehaviour: 'throw' });
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // smol-toml's message is "Invalid TOML document: <what>\n\n<code excerpt>"; keep <what>.
    const what = error.message.replace(/^Invalid TOML document: /, '').split('\n')[0] ?? error.message;
    const syntax = errors.configSyntax(fileName, error.line, `${what} (column ${error.column})`);
    syntax.cause = error;
    throw syntax;
  }
}

/** Fails at load, not at the first retried request, when the requestState key's variable is unset or short. */
function checkRequestStateKey(
  config: ForesightConfig,
  fileName: string,
  keyLines: KeyLines,
  env: NodeJS.ProcessEnv,
): void {
  const line = lineOfKeyPath(keyLines, ['server', 'request_state_key_env']);
  resolveRequestStateKey(config, env, `server.request_state_key_env in ${fileName}${line ? `:${line}` : ''}`);
}

/** Fails at load, not when Redis is first needed, when the cluster's URL variable is unset or holds no Redis URL. */
function checkClusterUrl(
  config: ForesightConfig,
  fileName: string,
  keyLines: KeyLines,
  env: NodeJS.ProcessEnv,
): void {
  const line = lineOfKeyPath(keyLines, ['cluster', 'redis_url_env']);
  resolveCluster(config, env, `cluster.redis_url_env in ${fileName}${line ? `:${line}` : ''}`);
}

/** Fails at load, not at the first opaque token, when the introspection client secret's variable is unset. */
function checkIntrospectionSecret(
  config: ForesightConfig,
  fileName: string,
  keyLines: KeyLines,
  env: NodeJS.ProcessEnv,
): void {
  // As for auth_token_env: a stdio server never reads it (`--http` reads it when it serves).
  if (config.server.transport !== 'http') return;
  const line = lineOfKeyPath(keyLines, ['auth', 'introspection_client_secret_env']);
  resolveAuth(config, env, `auth.introspection_client_secret_env in ${fileName}${line ? `:${line}` : ''}`);
}

/** Fails at load, not at the first request, when HTTP auth is configured but its variable is unset. */
function checkAuthToken(
  config: ForesightConfig,
  fileName: string,
  keyLines: KeyLines,
  env: NodeJS.ProcessEnv,
): void {
  const variable = config.server.authTokenEnv;
  if (variable === undefined || config.server.transport !== 'http') return;
  const line = lineOfKeyPath(keyLines, ['server', 'auth_token_env']);
  readSecret(variable, `server.auth_token_env in ${fileName}${line ? `:${line}` : ''}`, env);
}

/**
 * A plugin option ending in `_env` names a secret (`token_env = "GITHUB_TOKEN"`), or a table of them
 * (`secret_env = { API_KEY = "MY_API_KEY" }`, the values being variable names). Reading each one here
 * fails start-up on an unset variable, naming it, and registers the value for redaction whichever plugin
 * later reads it; the option itself still reaches the plugin as the variable's name.
 */
function checkPluginSecrets(
  config: ForesightConfig,
  fileName: string,
  keyLines: KeyLines,
  env: NodeJS.ProcessEnv,
): void {
  for (const entry of config.plugins) {
    if (!entry.enabled) continue;
    for (const [key, value] of Object.entries(entry.options)) {
      if (!key.endsWith('_env')) continue;
      const named: [string[], unknown][] =
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? Object.entries(value).map(([inner, variable]) => [[key, inner], variable])
          : [[[key], value]];
      for (const [path, variable] of named) {
        if (typeof variable !== 'string') continue;
        const line = lineOfKeyPath(keyLines, ['plugins', entry.name, ...path]);
        const where = `plugins.${entry.name}.${path.join('.')} in ${fileName}${line ? `:${line}` : ''}`;
        readSecret(variable, where, env);
      }
    }
  }
}
