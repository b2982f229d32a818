// Shared ground for the fuzz suites: a temp rig (a workspace root with escaping links, a marker outside it,
// a config that registers a canary secret), the check that a server message is well-formed JSON-RPC, and
// the seed and run counts every property uses, so a failure replays with FUZZ_SEED.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './everything-http.js';

/** The seed of every fuzz property: fixed, so `npm test` is repeatable; FUZZ_SEED replays or explores another. */
export function fuzzSeed(fixed: number): number {
  const override = process.env.FUZZ_SEED;
  return override === undefined || override === '' ? fixed : Number(override);
}

/** Scales every property's run count (FUZZ_RUNS_SCALE=10 for a longer local hunt); 1 in `npm test`. */
export function fuzzRuns(base: number): number {
  const scale = Number(process.env.FUZZ_RUNS_SCALE ?? '1');
  return Math.max(1, Math.round(base * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

/** How long one answer may take before the fuzzer calls it a hang: a failure signal, not a speed check. */
export const ANSWER_TIMEOUT_MS = 15_000;

/** The workspace files of the rig, inside the root. */
export const ROOT_FILES: Readonly<Record<string, string>> = {
  'a.txt': 'alpha line one\nalpha line two\n',
  'notes.md': '# Notes\n\nremember the milk\n',
  'src/index.ts': 'export const answer = 42;\n',
  'src/util.ts': 'export function twice(n: number): number {\n  return n * 2;\n}\n',
  'deep/er/still/leaf.txt': 'leaf\n',
  'ünï cödé/файл.txt': 'unicode path\n',
};

/** Links inside the root, each pointing out of it (or at itself): none may ever be followed. */
export const ESCAPING_LINKS = ['link-out', 'link-secret', 'link-environ', 'link-up', 'link-loop'] as const;

export interface FuzzRig {
  /** The temp dir holding root/, outside/ and the config. */
  dir: string;
  root: string;
  outside: string;
  config: string;
  /** A secret the server knows (its env, registered through a plugin's token_env); must never be printed. */
  canary: string;
  /** The content of the files outside the root; must never be printed. */
  marker: string;
  /** Part of a file name outside the root that no input ever holds; must never be printed either. */
  nameMarker: string;
  /** The env to start the server with. */
  env: Record<string, string>;
  remove(): Promise<void>;
}

export const CANARY_ENV = 'FUZZ_CANARY_TOKEN';

/**
 * Builds the rig: root/ with the workspace files and links escaping to outside/ and /proc/self/environ (which
 * holds the canary), and a config mounting the workspace plugin on root/ and a github plugin pointed at a closed
 * loopback port whose token is the canary, at trace log level so every log line the server has is written.
 */
export async function makeFuzzRig(extraToml: readonly string[] = []): Promise<FuzzRig> {
  const dir = await mkdtemp(path.join(tmpdir(), 'foresight-fuzz-'));
  const root = path.join(dir, 'root');
  const outside = path.join(dir, 'outside');
  const canary = `cnry${randomBytes(14).toString('hex')}`;
  const marker = `MARKER${randomBytes(12).toString('hex')}`;
  const nameMarker = `nm${randomBytes(8).toString('hex')}`;
  for (const [rel, text] of Object.entries(ROOT_FILES)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(outside, 'secret.txt'), `${marker}\n`);
  await writeFile(path.join(outside, `hidden-${nameMarker}.txt`), `${marker}\n`);
  await symlink(outside, path.join(root, 'link-out'));
  await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link-secret'));
  await symlink('/proc/self/environ', path.join(root, 'link-environ'));
  await symlink('..', path.join(root, 'link-up'));
  await symlink('link-loop', path.join(root, 'link-loop'));
  await symlink('src', path.join(root, 'link-in'));
  const closedPort = await freePort();
  const config = path.join(dir, 'foresight.toml');
  await writeFile(
    config,
    [
      '[server]',
      'log_level = "trace"',
      '',
      '[plugins.workspace]',
      `root = ${JSON.stringify(root)}`,
      '',
      '[plugins.gh]',
      'use = "github"',
      'repo = "octo-org/octo-repo"',
      `base_url = "http://127.0.0.1:${closedPort}"`,
      `token_env = "${CANARY_ENV}"`,
      'retries = 0',
      'throttle = false',
      '',
      ...extraToml,
    ].join('\n'),
  );
  return {
    dir,
    root,
    outside,
    config,
    canary,
    marker,
    nameMarker,
    env: { [CANARY_ENV]: canary },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The secrets a text must never hold: the canary and both outside markers. */
export function leakIn(rig: FuzzRig, text: string): string | undefined {
  for (const [what, value] of [
    ['canary secret', rig.canary],
    ['marker from outside the root', rig.marker],
    ['file name from outside the root', rig.nameMarker],
  ] as const)
    if (text.includes(value)) return `${what} ${value} found in: ${excerpt(text, value)}`;
  return undefined;
}

function excerpt(text: string, value: string): string {
  const at = text.indexOf(value);
  return JSON.stringify(text.slice(Math.max(0, at - 200), at + value.length + 100));
}

/** JSON-RPC's internal error: never a fair answer to bad input (a bug behind it is a finding). */
export const INTERNAL_ERROR = -32603;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why `message` is not a well-formed JSON-RPC 2.0 message from a server, or undefined when it is. */
export function wireProblem(message: unknown): string | undefined {
  if (!isRecord(message)) return 'not a JSON object';
  if (message.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  if ('method' in message) {
    if (typeof message.method !== 'string' || message.method === '') return 'method is not a string';
    if ('params' in message && !isRecord(message.params)) return 'params is not an object';
    return undefined;
  }
  if (!('id' in message)) return 'a response without an id';
  const id = message.id;
  if (id !== null && typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id)))
    return `id ${JSON.stringify(id)} is neither a string, a number nor null`;
  const hasResult = 'result' in message;
  const hasError = 'error' in message;
  if (hasResult === hasError) return 'a response needs exactly one of result and error';
  if (hasResult) return isRecord(message.result) ? undefined : 'result is not an object';
  const error = message.error;
  if (!isRecord(error)) return 'error is not an object';
  if (typeof error.code !== 'number' || !Number.isInteger(error.code)) return 'error.code is not an integer';
  if (typeof error.message !== 'string' || error.message.trim() === '') return 'error.message is empty';
  return undefined;
}

/** Why an answer (already well-formed) is not a clear one: an internal error, or a tool error saying nothing. */
export function unclearAnswer(message: Record<string, unknown>): string | undefined {
  const error = message.error as { code?: number; message?: string } | undefined;
  if (error?.code === INTERNAL_ERROR) return `internal error: ${error.message}`;
  if (error && /internal error/i.test(error.message ?? '')) return `says "internal error": ${error.message}`;
  const result = message.result;
  return isRecord(result) ? unclearToolResult(result) : undefined;
}

/** Why a tool result marked isError is not clear: no text, "internal error", or an error of kind internal. */
export function unclearToolResult(result: Record<string, unknown>): string | undefined {
  if (result.isError !== true) return undefined;
  const content = Array.isArray(result.content) ? (result.content as { type?: string; text?: string }[]) : [];
  const text = content.map((c) => (c.type === 'text' ? (c.text ?? '') : '')).join('\n');
  if (text.trim() === '') return 'an error result without a message';
  if (/internal error/i.test(text)) return `an error result saying "internal error": ${text.slice(0, 300)}`;
  const meta = result._meta;
  const kind = isRecord(meta) && isRecord(meta['foresight/error']) ? meta['foresight/error'].kind : undefined;
  if (kind === 'internal') return `an error of kind internal: ${text.slice(0, 300)}`;
  return undefined;
}
