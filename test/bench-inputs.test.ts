// The bench runs from any clone: the agent corpus it replays is in the repository, a missing input stops a run
// before any part's code is loaded (naming the file and how to get it), and each finished part is written to the
// results file before the next part starts. The bench runs as `node --import tsx`, as `npm run bench` runs it.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCorpusChain } from '../bench/lib/corpus-sessions.js';
import { CORPUS_DIR, CORPUS_FILES } from '../bench/lib/inputs.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
/** Notes every module a process loads (its children too, through NODE_OPTIONS) in MODULE_TRACE_FILE. */
const MODULE_TRACE = fileURLToPath(new URL('./support/module-trace.mjs', import.meta.url));

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'foresight-bench-inputs-'));
  dirs.push(dir);
  return dir;
}

interface BenchRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The bench's own modules the run loaded, its child processes' included: `bench/run.ts`, `bench/lib/parts.ts`. */
  loaded: string[];
}

/** Runs a bench script with only the given BENCH_* variables; `onStderr` sees stderr as it comes. */
async function runBench(
  script: string,
  env: Record<string, string>,
  onStderr: (text: string) => void = () => {},
): Promise<BenchRun> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('BENCH_')));
  const trace = path.join(await tempDir(), 'modules.txt');
  const nodeOptions = [clean.NODE_OPTIONS, `--import=${MODULE_TRACE}`].filter(Boolean).join(' ');
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: REPO,
    env: { ...clean, ...env, NODE_OPTIONS: nodeOptions, MODULE_TRACE_FILE: trace },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    onStderr(stderr);
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const urls = existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter(Boolean) : [];
      const loaded = urls
        .map((url) => path.relative(REPO, fileURLToPath(url)).split(path.sep).join('/'))
        .filter((file) => file.startsWith('bench/'));
      resolve({ code, stdout, stderr, loaded });
    });
  });
}

describe('the agent corpus', () => {
  it('is in the repository, with its source note, and the replay fits its chain from there', () => {
    expect(path.relative(REPO, CORPUS_DIR)).toBe(path.join('bench', 'data', 'agent-corpus'));
    for (const file of [...CORPUS_FILES, 'SOURCE.md'])
      expect(existsSync(path.join(CORPUS_DIR, file)), file).toBe(true);
    expect(readFileSync(path.join(CORPUS_DIR, 'SOURCE.md'), 'utf8')).toContain('meteora-pro/devboy-tools');
    const chain = loadCorpusChain();
    expect(chain.calls.read_file).toBeGreaterThan(0);
    expect(chain.next.glob?.map(([state]) => state)).toContain('read_file');
  });
});

describe('a missing input', () => {
  it('stops the bench before any part is loaded, naming the file and the variable that named it', async () => {
    const dir = await tempDir();
    const missing = path.join(dir, 'other', 'dist', 'cli', 'main.js');
    const results = path.join(dir, 'results.json');
    const run = await runBench('bench/run.ts', {
      BENCH_ONLY: 'eras',
      BENCH_FORESIGHT_CLI: missing,
      BENCH_RESULTS: results,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('bench: cannot start, an input is missing:');
    expect(run.stderr).toContain(`the Foresight build under test: ${missing}`);
    expect(run.stderr).toContain('BENCH_FORESIGHT_CLI names it');
    // Nothing was measured or written: the parts print the machine line first.
    expect(run.stdout).toBe('');
    expect(existsSync(results)).toBe(false);
    // Stopped by the light checks alone: not one module of the parts (bench/lib/parts.ts imports them all) loaded.
    expect(run.loaded).toContain('bench/lib/inputs.ts');
    expect(run.loaded).not.toContain('bench/lib/parts.ts');
    expect(run.loaded).not.toContain('bench/lib/eras.ts');
  });

  it('stops bench:ab before its first run when BENCH_AB_OTHER names no file', async () => {
    const missing = path.join(await tempDir(), 'main.js');
    const run = await runBench('bench/eras-ab.ts', { BENCH_AB_OTHER: missing });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the other Foresight build: ${missing}`);
    expect(run.stderr).toContain('BENCH_AB_OTHER names it');
    expect(run.stderr).not.toContain('pair 1/');
    // No eras run was started: its child process (bench/run.ts) would have loaded the parts.
    expect(run.loaded).toContain('bench/eras-ab.ts');
    expect(run.loaded).not.toContain('bench/run.ts');
    expect(run.loaded).not.toContain('bench/lib/parts.ts');
  });

  it('an unknown part name stops the bench the same way', async () => {
    const run = await runBench('bench/run.ts', { BENCH_ONLY: 'eras,speed' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('BENCH_ONLY takes part names, comma-separated');
    expect(run.stdout).toBe('');
  });
});

describe('each finished part', () => {
  it('is printed and in the results file before the next part starts', async () => {
    const results = path.join(await tempDir(), 'latest.json');
    // The two in-process parts, the cheapest: enrichment runs first, then tokens.
    let atTokensStart: Record<string, unknown> | undefined;
    const run = await runBench(
      'bench/run.ts',
      { BENCH_ONLY: 'tokens,enrichment', BENCH_RESULTS: results },
      (text) => {
        if (atTokensStart === undefined && text.includes('bench: tokens:'))
          atTokensStart = JSON.parse(readFileSync(results, 'utf8')) as Record<string, unknown>;
      },
    );
    expect(run.stderr).not.toContain('Error');
    expect(run.code).toBe(0);
    expect(Object.keys(atTokensStart ?? {})).toEqual(['enrichment', 'writtenAt']);
    // The trace the tests above rely on sees the parts when they do load.
    expect(run.loaded).toContain('bench/lib/parts.ts');
    expect(run.stdout.indexOf(`written: ${results} (enrichment)`)).toBeLessThan(
      run.stdout.indexOf('tokens of recorded GitHub issue lists'),
    );
    const final = JSON.parse(readFileSync(results, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(final).sort()).toEqual(['enrichment', 'tokens', 'writtenAt']);
    expect(Object.keys(final.writtenAt as object).sort()).toEqual(['enrichment', 'tokens']);
  });
});
