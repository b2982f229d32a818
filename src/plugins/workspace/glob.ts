// The glob tool: the files under a directory whose paths match a glob, ignores honoured.
import { stat } from 'node:fs/promises';
import picomatch from 'picomatch';
import * as z from 'zod';
import { describeThrown, errors, isForesightError } from '../../contract/index.js';
import { maxResultsParam, pathParam } from './params.js';
import { displayPath, joinRel, normalizeRel, resolveInRoot, type ResolvedPath } from './paths.js';
import { defineTool, type WorkspaceTool } from './tool.js';
import { walkFiles, walkOne } from './walk.js';
import type { Workspace } from './workspace.js';

const GlobOutput = z.object({
  paths: z.array(z.string()).describe('matching files, relative to the workspace root, in path order'),
  truncated: z.boolean().describe('true when more files matched than max_results'),
});
type GlobResult = z.output<typeof GlobOutput>;

export function createGlobTool(ws: Workspace): WorkspaceTool {
  return defineTool({
    name: 'glob',
    title: 'Find files by glob',
    description:
      'Lists workspace files whose path matches a glob pattern (picomatch syntax: *, **, ?, [abc], {a,b}). ' +
      'The pattern is relative to `path`: "*.ts" matches only there, "**/*.ts" at any depth. ' +
      'Skips .git, node_modules and files ignored by any .gitignore. Returns paths relative to the workspace root, ' +
      'ready for read_file.',
    input: z.strictObject({
      pattern: z.string().min(1).max(1000).describe('glob pattern, e.g. "src/**/*.ts" or "**/*.{md,txt}"'),
      path: pathParam('directory to search in'),
      max_results: maxResultsParam(ws.maxResults, 'most paths to return'),
    }),
    output: GlobOutput,
    async run(args, ctx) {
      const found = await findFiles(ws, args.pattern, args.path, args.max_results, ctx.signal);
      return { text: formatPaths(found, args.pattern), structured: found };
    },
  });
}

async function findFiles(
  ws: Workspace,
  rawPattern: string,
  dirArg: string,
  maxResults: number,
  signal: AbortSignal,
): Promise<GlobResult> {
  const pattern = rawPattern.replace(/^(\.\/)+/, '');
  // A pattern with ".." or a leading "/" could only match outside the search directory; refuse it as such.
  normalizeRel(pattern);
  let matches: (path: string) => boolean;
  try {
    matches = picomatch(pattern, { dot: true });
  } catch (error) {
    throw errors.badPattern(rawPattern, describeThrown(error));
  }
  const dir = await resolveInRoot(ws.root, dirArg);
  if (!(await stat(dir.real)).isDirectory()) throw errors.notADirectory(displayPath(dir.rel));
  // Start at the pattern's literal prefix ("src" of "src/**/*.ts") so unrelated trees are never read.
  const start = await resolveOrNothing(ws, joinRel(dir.rel, picomatch.scan(pattern).base));
  if (start === undefined) return { paths: [], truncated: false };
  const startStats = await stat(start.real);
  if (!startStats.isDirectory() && !startStats.isFile()) return { paths: [], truncated: false };
  const candidates = startStats.isDirectory() ? walkFiles(ws.root, start, signal) : walkOne(start);
  const paths: string[] = [];
  for await (const file of candidates) {
    const local = dir.rel === '' ? file.rel : file.rel.slice(dir.rel.length + 1);
    if (!matches(local)) continue;
    if (paths.length === maxResults) return { paths, truncated: true };
    paths.push(file.rel);
  }
  return { paths, truncated: false };
}

async function resolveOrNothing(ws: Workspace, rel: string): Promise<ResolvedPath | undefined> {
  try {
    return await resolveInRoot(ws.root, rel);
  } catch (error) {
    if (isForesightError(error) && error.code === errors.pathNotFound.code) return undefined;
    throw error;
  }
}

function formatPaths(found: GlobResult, pattern: string): string {
  if (found.paths.length === 0) return `no files match ${JSON.stringify(pattern)}`;
  const note = found.truncated
    ? `\n[truncated: first ${found.paths.length} matches shown; narrow the pattern or raise max_results]`
    : '';
  return found.paths.join('\n') + note;
}
