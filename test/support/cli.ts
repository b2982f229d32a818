// Test seam for end-to-end tests: runs the built CLI (dist/cli/main.js) in a temp workspace, reads its
// start line, output and exit, and kills whatever is still running when a test ends.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Stream } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { PATIENCE_MS } from './patience.js';

/** The built CLI; FORESIGHT_E2E_CLI points the suite at another build (e.g. to check that a broken one fails it). */
export const CLI_PATH =
  process.env.FORESIGHT_E2E_CLI ?? fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** How long a spawned CLI may take to print its start line (node start-up on a busy 2-core box). */
export const START_TIMEOUT_MS = PATIENCE_MS;
/** How long a process may take to exit after stdin closes or a signal. */
export const EXIT_TIMEOUT_MS = PATIENCE_MS;

/** What `serve` said on stderr, one message per JSON record (a line that is not one is kept as it is). */
export function loggedMessages(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        const record = JSON.parse(line) as { msg?: unknown };
        return typeof record.msg === 'string' ? record.msg : line;
      } catch {
        return line;
      }
    });
}

/** `serve`'s ready line, a JSON log record like every line of its stderr. */
export const START_LINE =
  /"msg":"(\d+) plugins? mounted \(([^)]*)\), (\d+) tools?, discovery: [^"]*, serving ([^"]+)"/;

export function assertBuilt(): void {
  if (!existsSync(CLI_PATH))
    throw new Error(`${CLI_PATH} is missing: run \`npm run build\` before the e2e tests`);
}

/** The files every e2e workspace starts with; tests assert on this exact content. */
export const WORKSPACE_FILES: Readonly<Record<string, string>> = {
  'a.txt': 'alpha line one\nalpha line two\n',
  'notes.md': '# Notes\n\nremember the milk\n',
  'src/index.ts': 'export const answer = 42;\n',
  'src/util.ts': 'export function twice(n: number): number {\n  return n * 2;\n}\n',
};

const workspaces = new Set<string>();

/** A fresh directory under the OS temp dir holding `files` (paths relative to it). */
export async function makeWorkspace(
  files: Readonly<Record<string, string>> = WORKSPACE_FILES,
): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'foresight-e2e-'));
  workspaces.add(dir);
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(dir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  return dir;
}

export async function removeWorkspaces(): Promise<void> {
  const dirs = [...workspaces];
  workspaces.clear();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Rejects with a message naming `what` when `promise` takes longer than `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const live = new Set<ChildProcess>();

function track(child: ChildProcess): Promise<Exit> {
  live.add(child);
  return new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
    child.once('error', () => {
      live.delete(child);
      resolve({ code: null, signal: null });
    });
  });
}

/** SIGKILLs every CLI process still running and waits for it; call from afterEach. */
export async function killAll(): Promise<void> {
  const children = [...live];
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

// A last guard if a worker dies between a spawn and its afterEach.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export interface SpawnOptions {
  cwd: string;
  /** Added to (and overriding) this process's environment. */
  env?: Record<string, string | undefined>;
}

function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export interface CliProcess {
  child: ChildProcess;
  /** Everything written to stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  exited: Promise<Exit>;
  /** Resolves with the first match of `pattern` in stderr (also matching what was already printed). */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  waitForExit(timeoutMs?: number): Promise<Exit>;
}

export function spawnCli(args: readonly string[], options: SpawnOptions): CliProcess {
  assertBuilt();
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    cwd: options.cwd,
    env: childEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = track(child);
  let out = '';
  let err = '';
  const stderrListeners = new Set<() => void>();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    for (const listener of stderrListeners) listener();
  });
  // A test that never writes to stdin must not get EPIPE when the process exits first.
  child.stdin?.on('error', () => {});

  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForStderr(pattern, timeoutMs = START_TIMEOUT_MS) {
      const found = new Promise<RegExpExecArray>((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(err);
          if (match) {
            stderrListeners.delete(check);
            resolve(match);
          }
        };
        stderrListeners.add(check);
        check();
        void exited.then((exit) => {
          stderrListeners.delete(check);
          reject(
            new Error(`CLI exited (${JSON.stringify(exit)}) before printing ${pattern}; stderr:\n${err}`),
          );
        });
      });
      return withTimeout(found, timeoutMs, `${pattern} on stderr; stderr so far:\n${err}`);
    },
    waitForExit: (timeoutMs = EXIT_TIMEOUT_MS) => withTimeout(exited, timeoutMs, 'the CLI to exit'),
  };
}

export interface RunResult extends Exit {
  stdout: string;
  stderr: string;
}

/** Runs a CLI command to completion (stdin closed at once); kills it if it outlives `timeoutMs`. */
export async function runCli(
  args: readonly string[],
  options: SpawnOptions & { timeoutMs?: number },
): Promise<RunResult> {
  const proc = spawnCli(args, options);
  proc.child.stdin?.end();
  const exit = await proc.waitForExit(options.timeoutMs ?? START_TIMEOUT_MS);
  return { ...exit, stdout: proc.stdout(), stderr: proc.stderr() };
}

export interface HttpServer extends CliProcess {
  /** The MCP endpoint, parsed from the start line. */
  url: URL;
  port: number;
  startLine: string;
}

/** `serve --http 127.0.0.1:0 [--config F]`, resolved once the start line names the URL. */
export async function startHttpServer(options: SpawnOptions & { config?: string }): Promise<HttpServer> {
  const args = ['serve', '--http', '127.0.0.1:0', ...(options.config ? ['--config', options.config] : [])];
  const proc = spawnCli(args, options);
  const match = await proc.waitForStderr(/"msg":"[^"]*serving Streamable HTTP on (http:\/\/[^\s"]+)"/);
  const url = new URL(match[1] ?? '');
  return { ...proc, url, port: Number(url.port), startLine: match[0] };
}

/** What an SDK stdio client transport (either SDK line) is given to spawn the built CLI, stderr piped. */
export interface CliStdioParameters {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stderr: 'pipe';
}

export function cliStdioParameters(options: SpawnOptions & { args?: readonly string[] }): CliStdioParameters {
  assertBuilt();
  return {
    command: process.execPath,
    args: [CLI_PATH, ...(options.args ?? [])],
    cwd: options.cwd,
    env: childEnv(options.env) as Record<string, string>,
    stderr: 'pipe',
  };
}

/**
 * The CLI process behind an SDK stdio client transport: what it printed on stderr and how it ended. Both SDK
 * lines (1.32.2 and 2.4.0) keep the child private as `_process`; reading it here is the one place that
 * depends on that.
 */
export class StdioServerWatch {
  private stderrText = '';
  private exitPromise: Promise<Exit> | undefined;

  /** `stderr` is the transport's piped stderr, which both SDK lines hand out before `start()`. */
  constructor(private readonly stderr: Stream | null) {
    this.stderr?.on('data', (chunk: Buffer) => (this.stderrText += chunk.toString('utf8')));
  }

  /** Call once the transport has started: from then on the child's exit is tracked (and killed by killAll). */
  follow(transport: object): void {
    const child = (transport as { _process?: ChildProcess })._process;
    if (!child)
      throw new Error('StdioClientTransport no longer exposes its child process; update test/support/cli.ts');
    this.exitPromise = track(child);
  }

  /** Resolves when the server process has exited. */
  exited(timeoutMs = EXIT_TIMEOUT_MS): Promise<Exit> {
    if (!this.exitPromise) throw new Error('transport not started');
    return withTimeout(this.exitPromise, timeoutMs, 'the stdio server to exit');
  }

  stderrSoFar(): string {
    return this.stderrText;
  }

  /** The first match of `pattern` in the server's stderr (stderr and stdout are separate pipes, so it may lag). */
  async waitForStderr(pattern: RegExp, timeoutMs = START_TIMEOUT_MS): Promise<RegExpExecArray> {
    const found = new Promise<RegExpExecArray>((resolve) => {
      const check = () => {
        const match = pattern.exec(this.stderrText);
        if (!match) return;
        this.stderr?.off('data', check);
        resolve(match);
      };
      this.stderr?.on('data', check);
      check();
    });
    return withTimeout(found, timeoutMs, `${pattern} on the stdio server's stderr; got:\n${this.stderrText}`);
  }
}

/** The SDK v2 stdio client transport running the built CLI, which also records how the server process ended. */
export class ObservedStdioClientTransport extends StdioClientTransport {
  private readonly watch: StdioServerWatch;

  constructor(options: SpawnOptions & { args?: readonly string[] }) {
    super(cliStdioParameters(options));
    this.watch = new StdioServerWatch(this.stderr);
  }

  override async start(): Promise<void> {
    await super.start();
    this.watch.follow(this);
  }

  /** Resolves when the server process has exited. */
  exited(timeoutMs?: number): Promise<Exit> {
    return this.watch.exited(timeoutMs);
  }

  stderrSoFar(): string {
    return this.watch.stderrSoFar();
  }

  /** The first match of `pattern` in the server's stderr (stderr and stdout are separate pipes, so it may lag). */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray> {
    return this.watch.waitForStderr(pattern, timeoutMs);
  }
}

export function newClient(name = 'e2e-test'): Client {
  return new Client({ name, version: '1.0.0' });
}

/** The headers a Streamable HTTP client sends with every POST to the MCP endpoint. */
export const MCP_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** An SDK v2 client connected to `url` over Streamable HTTP (a 2025-era session: the Client's default handshake). */
export async function connectHttp(
  url: URL,
  requestInit?: RequestInit,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(url, requestInit ? { requestInit } : undefined);
  const client = newClient();
  await withTimeout(client.connect(transport), START_TIMEOUT_MS, 'the HTTP client to initialize');
  return { client, transport };
}

export interface JsonRpcMessage {
  jsonrpc?: string;
  id?: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  method?: string;
}

/**
 * A raw line-oriented client for a stdio server: writes lines exactly as given (so a test can send
 * malformed input) and reads every line the server prints as JSON.
 */
export class RawStdioClient {
  private buffer = '';
  private readonly received: JsonRpcMessage[] = [];
  private readonly waiters = new Set<() => void>();
  private nextId = 1_000;

  constructor(readonly proc: CliProcess) {
    proc.child.stdout?.on('data', (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) !== -1) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        if (line.trim() === '') continue;
        // A line that is not JSON is itself a failure of the server; keep it visible to assertions.
        try {
          this.received.push(JSON.parse(line) as JsonRpcMessage);
        } catch {
          this.received.push({
            error: { code: 0, message: `server printed a non-JSON line: ${line.slice(0, 200)}` },
          });
        }
        for (const wake of this.waiters) wake();
      }
    });
  }

  /** Writes one line (a newline is added) and waits until the pipe accepted it. */
  async sendLine(line: string): Promise<void> {
    const stdin = this.proc.child.stdin;
    if (!stdin) throw new Error('no stdin');
    await new Promise<void>((resolve, reject) =>
      stdin.write(`${line}\n`, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** The next message matching `predicate` not yet taken; later ones stay queued. */
  async next(
    predicate: (message: JsonRpcMessage) => boolean,
    timeoutMs = EXIT_TIMEOUT_MS,
  ): Promise<JsonRpcMessage> {
    const found = new Promise<JsonRpcMessage>((resolve) => {
      const check = () => {
        const index = this.received.findIndex(predicate);
        if (index === -1) return;
        this.waiters.delete(check);
        resolve(this.received.splice(index, 1)[0] as JsonRpcMessage);
      };
      this.waiters.add(check);
      check();
    });
    return withTimeout(
      found,
      timeoutMs,
      `a matching message from the stdio server; got ${JSON.stringify(this.received).slice(0, 500)}`,
    );
  }

  /** Sends a well-formed request and resolves with its response. */
  async request(method: string, params?: Record<string, unknown>): Promise<JsonRpcMessage> {
    const id = this.nextId++;
    await this.sendLine(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }));
    return this.next((message) => message.id === id);
  }

  async initialize(): Promise<void> {
    const response = await this.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw-e2e', version: '1.0.0' },
    });
    if (!response.result) throw new Error(`initialize failed: ${JSON.stringify(response)}`);
    await this.sendLine(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }

  /** Messages received and not taken by next(); tests use it to prove nothing unexpected came back. */
  pending(): readonly JsonRpcMessage[] {
    return this.received;
  }
}

/** The text blocks of a tool result, joined by newlines. */
export function textOf(result: object): string {
  const content = ((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[];
  return content.map((c) => (c.type === 'text' ? (c.text ?? '') : '')).join('\n');
}
