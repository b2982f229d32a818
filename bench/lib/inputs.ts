// What the bench reads besides its own code, in one place, and the check run before any part starts: a missing
// input stops the run in its first second, naming the file and how to get it, not minutes in when its part begins.
// Light on purpose (no SDK, no src/): bench/run.ts checks the inputs before it loads the parts.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './root.js';

export interface BenchInput {
  /** What the file is, as the message names it. */
  what: string;
  path: string;
  /** How to get it. */
  remedy: string;
}

/** The parts of `npm run bench`, in the order a full run measures them. */
export const BENCH_PARTS = [
  'eras',
  'oauth',
  'list',
  'upstream',
  'enrichment',
  'tokens',
  'discovery',
  'planner',
  'cluster',
] as const;
export type BenchPart = (typeof BENCH_PARTS)[number];

/** The agent corpus the planner replay fits its sessions to, kept in the repository (see its SOURCE.md). */
export const CORPUS_DIR = join(ROOT, 'bench/data/agent-corpus');
export const CORPUS_FILES = ['tool_volume.csv', 'followup_edges.csv'] as const;

/** The bench's server-side TypeScript, transpiled into its temp workspace (bench/lib/workspace.ts). */
export const SERVER_SOURCES = [
  'bench/servers/raw-echo.ts',
  'bench/servers/raw-echo-http.ts',
  'bench/servers/raw-echo-server.ts',
  'bench/servers/naive-bridge.ts',
  'bench/servers/naive-bridge-v1.ts',
  'bench/servers/ask-once.ts',
  'bench/fixtures/echo-plugin.ts',
  'bench/fixtures/echo-tools.ts',
  // The raw server's 2025 sessions answer and resume streams as Foresight's do, with the same store.
  'src/protocol/event-store.ts',
  'src/protocol/direct-posts.ts',
  'src/protocol/http-answers.ts',
  'src/protocol/listen.ts',
] as const;

export const EVERYTHING_PACKAGE = 'node_modules/@modelcontextprotocol/server-everything';
export const EVERYTHING_ENTRY = join(ROOT, EVERYTHING_PACKAGE, 'dist/index.js');
export const MCP_PROXY_BIN = join(ROOT, 'node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs');

/**
 * The MetaTool tool-retrieval data (HowieHwong/MetaTool, MIT) the discovery part scores the tool index on: beside
 * the repository, in the parent folder's shared/data (see its SOURCE.md), not in it.
 */
export const METATOOL_DIR = join(ROOT, '..', 'shared/data/tool-retrieval/metatool');
export const METATOOL_FILES = [
  'plugin_des.json',
  'all_clean_data.csv',
  'multi_tool_query_golden.json',
] as const;

/** The recorded GitHub scenarios (@octokit/fixtures) the token bench renders. */
export const TOKEN_SCENARIOS = ['paginate-issues', 'search-issues'] as const;

export function githubFixture(scenario: string): string {
  return join(
    ROOT,
    'node_modules/@octokit/fixtures/scenarios/api.github.com',
    scenario,
    'normalized-fixture.json',
  );
}

const NPM_CI = 'run `npm ci` in the repository (it comes with the dev dependencies)';
const inRepo = (path: string) =>
  `it belongs to the repository: \`git checkout -- ${relative(ROOT, path)}\` restores it`;

/** server-everything, the upstream the upstream bench, the soak run and the allocation bench mount. */
export const EVERYTHING_INPUT: BenchInput = {
  what: 'server-everything, the mounted upstream',
  path: EVERYTHING_ENTRY,
  remedy: NPM_CI,
};

/** The Foresight build a part serves, with the remedy that fits where its path came from. */
export function foresightCliInput(
  cli: string,
  fromEnv: string | undefined,
  what = 'the Foresight build under test',
): BenchInput {
  return {
    what,
    path: cli,
    remedy: fromEnv
      ? `${fromEnv} names it: point it at a built dist/cli/main.js (\`npm run build\` in that checkout)`
      : 'run `npm run build` (`npm run bench` builds first)',
  };
}

function sources(): BenchInput[] {
  return SERVER_SOURCES.map((source) => {
    const path = join(ROOT, source);
    return { what: 'a bench server source', path, remedy: inRepo(path) };
  });
}

/** Every file `part` reads; `cli` is the Foresight build it serves (BenchSettings.foresightCli). */
export function partInputs(part: BenchPart, cli: BenchInput): BenchInput[] {
  switch (part) {
    case 'eras':
    case 'oauth':
    case 'list':
      return [cli, ...sources()];
    case 'upstream':
      return [
        cli,
        ...sources(),
        EVERYTHING_INPUT,
        { what: 'mcp-proxy, the proxy compared with', path: MCP_PROXY_BIN, remedy: NPM_CI },
      ];
    case 'enrichment':
      return [];
    case 'tokens':
      return TOKEN_SCENARIOS.map((scenario) => ({
        what: `the recorded GitHub scenario ${scenario}`,
        path: githubFixture(scenario),
        remedy: NPM_CI,
      }));
    case 'discovery':
      return METATOOL_FILES.map((file) => ({
        what: 'the MetaTool tool-retrieval data',
        path: join(METATOOL_DIR, file),
        remedy: `put HowieHwong/MetaTool's dataset files (commit 35e81bb) in ${METATOOL_DIR} (see ../SOURCE.md there)`,
      }));
    case 'planner':
    case 'cluster':
      return CORPUS_FILES.map((file) => {
        const path = join(CORPUS_DIR, file);
        return {
          what: 'the agent corpus the planner replay fits its sessions to',
          path,
          remedy: inRepo(path),
        };
      });
  }
}

/** The inputs that are not on disk, each path once. */
export function missingInputs(inputs: readonly BenchInput[]): BenchInput[] {
  const seen = new Set<string>();
  return inputs.filter((input) => {
    if (seen.has(input.path)) return false;
    seen.add(input.path);
    return !existsSync(input.path);
  });
}

export function describeMissing(program: string, missing: readonly BenchInput[]): string {
  const lines = missing.map((input) => `  - ${input.what}: ${input.path}\n    ${input.remedy}`);
  const count = missing.length === 1 ? 'an input is' : `${missing.length} inputs are`;
  return [`${program}: cannot start, ${count} missing:`, ...lines, ''].join('\n');
}

/** Exits with code 2 and what is missing, before anything is measured; returns when every input is there. */
export function exitIfMissing(program: string, inputs: readonly BenchInput[]): void {
  const missing = missingInputs(inputs);
  if (missing.length === 0) return;
  process.stderr.write(describeMissing(program, missing));
  process.exit(2);
}
