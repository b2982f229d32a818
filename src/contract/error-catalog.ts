// Every error Foresight raises: a stable code, a kind, and a message template. Only protocol/ maps them to the wire.
import { type ErrorKind, ForesightError, PLUGIN_REPORTED } from './errors.js';

/** The client capabilities a plugin may need during a call, by the name the contract's methods use. */
export const CLIENT_CAPABILITY_NEEDS = {
  sampling: { label: 'sampling', required: { sampling: {} } },
  elicitation: { label: 'elicitation', required: { elicitation: {} } },
  'elicitation.url': { label: 'URL-mode elicitation', required: { elicitation: { url: {} } } },
  roots: { label: 'roots', required: { roots: {} } },
  tasks: {
    label: 'tasks (the io.modelcontextprotocol/tasks extension)',
    required: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
  },
} as const;
export type ClientCapabilityNeed = keyof typeof CLIENT_CAPABILITY_NEEDS;

export interface ErrorDefinition {
  code: string;
  kind: ErrorKind;
}

const catalog: ErrorDefinition[] = [{ code: PLUGIN_REPORTED, kind: 'internal' }];

type Template<A extends unknown[]> = (
  ...args: A
) => string | { message: string; details: Readonly<Record<string, unknown>> };

function define<A extends unknown[]>(code: string, kind: ErrorKind, template: Template<A>) {
  catalog.push({ code, kind });
  const factory = (...args: A) => {
    const made = template(...args);
    return typeof made === 'string'
      ? new ForesightError(code, kind, made)
      : new ForesightError(code, kind, made.message, { details: made.details });
  };
  return Object.assign(factory, { code, kind });
}

const quote = (value: string) => JSON.stringify(value);

export const errors = {
  // configuration
  configSyntax: define(
    'E_CONFIG_SYNTAX',
    'invalid_input',
    (file: string, line: number, detail: string) => `${file}:${line}: invalid TOML: ${detail}`,
  ),
  configInvalid: define(
    'E_CONFIG_INVALID',
    'invalid_input',
    (where: string, detail: string) => `${where}: ${detail}`,
  ),
  configFileMissing: define(
    'E_CONFIG_FILE_MISSING',
    'not_found',
    (file: string) => `config file ${quote(file)} does not exist`,
  ),
  configUnreadable: define(
    'E_CONFIG_UNREADABLE',
    'unavailable',
    (file: string, detail: string) => `cannot read config file ${quote(file)}: ${detail}`,
  ),
  auditFileUnopenable: define(
    'E_AUDIT_FILE',
    'unavailable',
    (file: string, detail: string) => `cannot open the [audit] file ${quote(file)} for appending: ${detail}`,
  ),
  secretMissing: define(
    'E_SECRET_MISSING',
    'invalid_input',
    (variable: string, key: string) =>
      `environment variable ${variable} (named by ${key}) is not set or empty`,
  ),
  secretInBinary: define(
    'E_SECRET_IN_BINARY',
    'invalid_input',
    (mimeType: string | undefined) =>
      `the answer holds binary content (${mimeType ?? 'of no stated media type'}) in which a configured secret appears; binary content cannot be redacted without corrupting it, so the answer is withheld`,
  ),
  // mounting
  pluginIdInvalid: define(
    'E_PLUGIN_ID_INVALID',
    'invalid_input',
    (id: string, owner: string) =>
      `plugin id ${quote(id)} (${owner}) must match ^[a-z][a-z0-9_]{0,31}$ and contain no "__"`,
  ),
  prefixReserved: define(
    'E_PREFIX_RESERVED',
    'invalid_input',
    (prefix: string, owner: string) =>
      `prefix ${quote(prefix)} of ${owner} is reserved for Foresight's own resources (foresight://planner/stats); set another with prefix = "..."`,
  ),
  pluginLoad: define(
    'E_PLUGIN_LOAD',
    'unavailable',
    (owner: string, detail: string) => `cannot load plugin ${owner}: ${detail}`,
  ),
  pluginBuild: define(
    'E_PLUGIN_BUILD',
    'internal',
    (owner: string, detail: string) => `plugin ${owner} failed to build: ${detail}`,
  ),
  pluginStart: define(
    'E_PLUGIN_START',
    'unavailable',
    (owner: string, detail: string) => `plugin ${owner} failed to start: ${detail}`,
  ),
  nameInvalid: define(
    'E_NAME_INVALID',
    'invalid_input',
    (what: string, name: string, owner: string, rule: string) =>
      `${what} ${quote(name)} of ${owner} is not a valid name: ${rule}`,
  ),
  nameConflict: define(
    'E_NAME_CONFLICT',
    'conflict',
    (what: string, name: string, first: string, second: string) =>
      `${what} ${quote(name)} is published by both ${first} and ${second}; give one of them another prefix`,
  ),
  registerAfterStart: define(
    'E_REGISTER_AFTER_START',
    'conflict',
    (id: string) => `cannot mount plugin ${quote(id)}: the host has already started`,
  ),
  // requests
  toolNotFound: define('E_TOOL_NOT_FOUND', 'not_found', (name: string) => `unknown tool ${quote(name)}`),
  promptNotFound: define(
    'E_PROMPT_NOT_FOUND',
    'not_found',
    (name: string) => `unknown prompt ${quote(name)}`,
  ),
  resourceNotFound: define(
    'E_RESOURCE_NOT_FOUND',
    'not_found',
    (uri: string) => `resource not found: ${uri}`,
  ),
  invalidArguments: define(
    'E_INVALID_ARGUMENTS',
    'invalid_input',
    (target: string, detail: string) => `invalid arguments for ${target}: ${detail}`,
  ),
  toolHidden: define(
    'E_TOOL_HIDDEN',
    'not_found',
    (name: string, category: string) =>
      `tool ${quote(name)} is not listed: no active enricher serves its category ${quote(category)}`,
  ),
  enricherFailed: define(
    'E_ENRICHER_FAILED',
    'internal',
    (enricher: string, tool: string, stage: string, detail: string) =>
      `enricher ${enricher} failed on tool ${quote(tool)} while ${stage}: ${detail}`,
  ),
  parameterPinned: define(
    'E_PARAMETER_PINNED',
    'invalid_input',
    (tool: string, param: string, value: string, rule: string) =>
      `parameter ${quote(param)} of tool ${quote(tool)} is fixed to ${value} by ${rule}; leave it out`,
  ),
  parameterHidden: define(
    'E_PARAMETER_HIDDEN',
    'invalid_input',
    (tool: string, param: string, rule: string) =>
      `parameter ${quote(param)} of tool ${quote(tool)} is not available: ${rule} hides it`,
  ),
  completionRefUnsupported: define(
    'E_COMPLETION_REF',
    'invalid_input',
    (detail: string) => `cannot complete ${detail}`,
  ),
  deadline: define(
    'E_DEADLINE',
    'timeout',
    (target: string, deadlineMs: number) =>
      `${target} did not finish within its deadline of ${deadlineMs} ms`,
  ),
  cancelled: define(
    'E_CANCELLED',
    'unavailable',
    (target: string) => `${target} was cancelled by the client`,
  ),
  shuttingDown: define(
    'E_SHUTTING_DOWN',
    'unavailable',
    (target: string) => `${target} was stopped because the server is shutting down`,
  ),
  pluginFailed: define(
    'E_PLUGIN_FAILED',
    'internal',
    (target: string, detail: string) => `${target} failed: ${detail}`,
  ),
  pluginCrashed: define(
    'E_PLUGIN_CRASHED',
    'internal',
    (target: string, detail: string) => `${target} failed: an error escaped the plugin's handler: ${detail}`,
  ),
  workerExited: define(
    'E_WORKER_EXITED',
    'unavailable',
    (owner: string, detail: string) => `the worker thread of plugin ${owner} stopped: ${detail}`,
  ),
  serverBusy: define(
    'E_SERVER_BUSY',
    'unavailable',
    (running: number, waiting: number) =>
      `the server is busy: this client already has ${running} calls running and ${waiting} waiting, the most it may queue; retry once some of them have answered`,
  ),
  rateLimited: define(
    'E_RATE_LIMITED',
    'unavailable',
    (perMinute: number, retryAfterS: number) =>
      `too many calls: this client may make ${perMinute} calls a minute (server.limits.max_calls_per_minute_per_client); retry in ${retryAfterS} s`,
  ),
  upstreamUnavailable: define(
    'E_UPSTREAM_UNAVAILABLE',
    'unavailable',
    (target: string, state: string) => `the upstream MCP server ${quote(target)} is ${state}`,
  ),
  upstreamRestartTimeout: define(
    'E_UPSTREAM_RESTART_TIMEOUT',
    'timeout',
    (target: string, waitedMs: number, state: string, resend: boolean) =>
      `the call waited ${waitedMs} ms for the upstream MCP server ${quote(target)} to restart, and its deadline came first: the call was not sent${resend ? ' again' : ''}; the server is ${state}`,
  ),
  upstreamCallNotHeld: define(
    'E_UPSTREAM_CALL_NOT_HELD',
    'unavailable',
    (tool: string, target: string) =>
      `the call of tool ${quote(tool)} of the upstream MCP server ${quote(target)} was waiting for your answers on another Foresight process, or its wait expired, and this process does not hold it; nothing was sent to the server again, since the tool may write. Call the tool again, without requestState, to start over`,
  ),
  upstreamProtocolError: define(
    'E_UPSTREAM_PROTOCOL_ERROR',
    'internal',
    (target: string, jsonRpcCode: number, said: string) => ({
      message: `the call to the upstream MCP server ${quote(target)} ended in a protocol error (${jsonRpcCode}): ${said}`,
      // The server's own JSON-RPC code: a task that fails with this error reports it.
      details: { jsonRpcCode },
    }),
  ),
  capabilityMissing: define(
    'E_CAPABILITY_MISSING',
    'unavailable',
    (need: ClientCapabilityNeed, what?: string) => ({
      message:
        what === undefined
          ? `the connected client does not support ${CLIENT_CAPABILITY_NEEDS[need].label}`
          : `${what} needs ${CLIENT_CAPABILITY_NEEDS[need].label}, which the client did not declare`,
      details: { requiredCapabilities: CLIENT_CAPABILITY_NEEDS[need].required },
    }),
  ),
  clientRequestOutsideCall: define(
    'E_CLIENT_REQUEST_OUTSIDE_CALL',
    'unavailable',
    () => 'a plugin in a worker thread cannot ask the client for anything outside a call',
  ),
  speculativeForbidden: define(
    'E_SPECULATIVE_FORBIDDEN',
    'invalid_input',
    (what: string) => `${what} is not allowed in a speculative call`,
  ),
  foreignUri: define(
    'E_FOREIGN_URI',
    'conflict',
    (uri: string, owner: string, plugin: string) =>
      `plugin ${plugin} returned ${uri}, which belongs to ${owner}`,
  ),
  badResult: define(
    'E_BAD_RESULT',
    'internal',
    (target: string, detail: string) => `${target} returned a malformed result: ${detail}`,
  ),
  unauthorized: define('E_UNAUTHORIZED', 'invalid_input', () => 'missing or wrong bearer token'),
  // multi round-trip requests (protocol revision 2026-07-28)
  requestStateInvalid: define(
    'E_REQUEST_STATE_INVALID',
    'invalid_input',
    (target: string) =>
      `requestState for ${target} failed its integrity check: it was altered, or was not issued by this server (nor by one sharing its request_state_key_env); send the request again without requestState`,
  ),
  requestStateExpired: define(
    'E_REQUEST_STATE_EXPIRED',
    'invalid_input',
    (target: string, ttlS: number) =>
      `requestState for ${target} has expired (it is valid for ${ttlS} s); send the request again without requestState`,
  ),
  requestStateForeign: define(
    'E_REQUEST_STATE_FOREIGN',
    'invalid_input',
    (target: string) =>
      `requestState for ${target} was issued to another caller; send the request again without requestState`,
  ),
  requestStateMismatch: define(
    'E_REQUEST_STATE_MISMATCH',
    'invalid_input',
    (target: string, issuedFor: string) =>
      `requestState was issued for ${issuedFor}, not for ${target}; send the request again without requestState, or with the arguments it was issued for`,
  ),
  requestStateTooLarge: define(
    'E_REQUEST_STATE_TOO_LARGE',
    'invalid_input',
    (bytes: number, limit: number) =>
      `requestState is ${bytes} bytes, over the ${limit}-byte limit (Foresight never issues a larger one); send the request again without requestState`,
  ),
  inputKeyReused: define('E_INPUT_KEY_REUSED', 'invalid_input', (key: string, answered = false) =>
    answered
      ? `the call asked the client for input under key ${quote(key)} again after that request was answered; a key names one request for the whole call, so give each request its own key`
      : `the call asked the client for input under key ${quote(key)} while an earlier request under that key is still unanswered; give each concurrent request its own key`,
  ),
  taskNotFound: define(
    'E_TASK_NOT_FOUND',
    'not_found',
    (taskId: string, ttlMs: number) =>
      `task ${quote(taskId.length > 100 ? `${taskId.slice(0, 100)}…` : taskId)} not found: no such task, it expired (tasks are kept ${ttlMs} ms after they start), or another client made it`,
  ),
  taskExpired: define(
    'E_TASK_EXPIRED',
    'timeout',
    (taskId: string, ttlMs: number) =>
      `task ${quote(taskId)} was still running when its ttlMs of ${ttlMs} ms passed; it was ended and dropped`,
  ),
  inputRoundsExceeded: define(
    'E_INPUT_ROUNDS_EXCEEDED',
    'invalid_input',
    (target: string, rounds: number) =>
      `${target} asked the client for input ${rounds} times without finishing; send the request again without requestState to start over`,
  ),
  // workspace plugin
  pathOutsideRoot: define(
    'E_PATH_OUTSIDE_ROOT',
    'invalid_input',
    (path: string) =>
      `path ${quote(path)} is outside the workspace root; give a path relative to the root, without ".." or links that leave it`,
  ),
  pathNotFound: define(
    'E_PATH_NOT_FOUND',
    'not_found',
    (path: string) => `no such file or directory: ${quote(path)}`,
  ),
  notAFile: define(
    'E_NOT_A_FILE',
    'invalid_input',
    (path: string) => `${quote(path)} is a directory, not a file`,
  ),
  notADirectory: define(
    'E_NOT_A_DIRECTORY',
    'invalid_input',
    (path: string) => `${quote(path)} is a file, not a directory`,
  ),
  processSecretRefused: define(
    'E_PROCESS_SECRET',
    'invalid_input',
    (path: string) =>
      `${quote(path)} is a process's environment or memory, which holds its secrets (tokens, keys); the workspace plugin never reads it, whatever its root`,
  ),
  binaryFile: define(
    'E_BINARY_FILE',
    'invalid_input',
    (path: string) => `${quote(path)} looks binary; read_file only returns text`,
  ),
  badPattern: define(
    'E_BAD_PATTERN',
    'invalid_input',
    (pattern: string, detail: string) => `invalid pattern ${quote(pattern)}: ${detail}`,
  ),
  lineOutOfRange: define(
    'E_LINE_OUT_OF_RANGE',
    'invalid_input',
    (path: string, line: number, totalLines: number) =>
      `start_line ${line} is past the end of ${quote(path)}, which has ${totalLines} lines`,
  ),
  fileTooLarge: define(
    'E_FILE_TOO_LARGE',
    'invalid_input',
    (path: string, sizeBytes: number, limitBytes: number) =>
      `${quote(path)} is binary and ${sizeBytes} bytes, over the ${limitBytes}-byte limit for binary resources`,
  ),
} as const;

/** Every code with its kind; a test keeps them unique and documented in docs/errors.md. */
export const ERROR_CATALOG: readonly ErrorDefinition[] = catalog;
