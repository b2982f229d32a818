// The grep tool: lines matching an RE2 pattern, with context, across the workspace's text files.
import { readFile, stat } from 'node:fs/promises';
import picomatch from 'picomatch';
import * as z from 'zod';
import { describeThrown, errors } from '../../contract/index.js';
import { looksBinary } from './binary.js';
import { formatMatches, type GrepMatch } from './grep-format.js';
import { compileLineTest, PATTERN_SYNTAX } from './grep-pattern.js';
import { maxResultsParam, pathParam } from './params.js';
import { displayPath, isDenied, isMissing, resolveInRoot } from './paths.js';
import { createTimeSlice } from './time-slice.js';
import { defineTool, type WorkspaceTool } from './tool.js';
import { walkFiles, walkOne } from './walk.js';
import type { Workspace } from './workspace.js';

/** Longer lines (minified bundles) are clipped, so one match cannot fill an agent's context. */
const MAX_LINE_CHARS = 500;
/**
 * Only this much of a line is searched. Past it a line is minified code or data, where a match means little, and
 * the bound keeps the work between two event-loop turns small (see time-slice.ts) on a file of such lines.
 */
const MAX_MATCH_CHARS = 4096;
const MAX_CONTEXT_LINES = 10;
/** Larger files are skipped: they are logs or bundles, and reading one whole would stall the call. */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

const MatchSchema = z.object({
  path: z.string().describe('file, relative to the workspace root'),
  line: z.number().int().describe('1-based line number'),
  text: z.string().describe('the matching line'),
  before: z.array(z.string()).optional().describe('context lines before the match, nearest last'),
  after: z.array(z.string()).optional().describe('context lines after the match'),
});
const GrepOutput = z.object({
  matches: z.array(MatchSchema),
  truncated: z.boolean().describe('true when the search stopped at max_results'),
});
type GrepResult = z.output<typeof GrepOutput>;

const GrepInput = (maxResults: number) =>
  z.strictObject({
    pattern: z
      .string()
      .min(1)
      .max(1000)
      .describe(
        `regular expression in ${PATTERN_SYNTAX}; no surrounding slashes; tested against each line (its first ${MAX_MATCH_CHARS} characters)`,
      ),
    path: pathParam('file or directory to search'),
    glob: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .describe(
        'only search files matching this glob, relative to `path`; "*.ts" (no "/") matches names at any depth',
      ),
    ignore_case: z.boolean().default(false).describe('match letters regardless of case'),
    context: z
      .number()
      .int()
      .min(0)
      .max(MAX_CONTEXT_LINES)
      .default(0)
      .describe('lines of context to show before and after each match'),
    max_results: maxResultsParam(maxResults, 'most matching lines to return'),
  });
type GrepArgs = z.output<ReturnType<typeof GrepInput>>;

export function createGrepTool(ws: Workspace): WorkspaceTool {
  return defineTool({
    name: 'grep',
    title: 'Search file contents',
    description:
      `Searches the text files of the workspace for lines matching a regular expression in ${PATTERN_SYNTAX}. ` +
      'Answers one "path:line:text" row per match (context rows as "path-line-text", groups split by "--"). ' +
      `Skips binary files, files over ${MAX_FILE_BYTES / 1024 / 1024} MiB, .git, node_modules and .gitignored files; ` +
      `only the first ${MAX_MATCH_CHARS} characters of a line are searched, and lines are shown clipped to ${MAX_LINE_CHARS}.`,
    input: GrepInput(ws.maxResults),
    output: GrepOutput,
    async run(args, ctx) {
      const result = await search(ws, args, ctx.signal);
      const text =
        result.matches.length === 0
          ? `no matches for /${args.pattern}/${args.ignore_case ? 'i' : ''}`
          : formatMatches(result.matches, args.context > 0) +
            (result.truncated
              ? `\n[truncated: stopped after ${result.matches.length} matches; narrow the search or raise max_results]`
              : '');
      return { text, structured: result };
    },
  });
}

async function search(ws: Workspace, args: GrepArgs, signal: AbortSignal): Promise<GrepResult> {
  const test = compileLineTest(args.pattern, args.ignore_case);
  const inFilter = args.glob === undefined ? () => true : fileFilter(args.glob);
  const target = await resolveInRoot(ws.root, args.path);
  const stats = await stat(target.real);
  if (!stats.isDirectory() && !stats.isFile()) throw errors.notAFile(displayPath(target.rel));
  const files = stats.isDirectory() ? walkFiles(ws.root, target, signal) : walkOne(target);
  const matches: GrepMatch[] = [];
  const slice = createTimeSlice(signal);
  for await (const file of files) {
    signal.throwIfAborted();
    const local = stats.isDirectory() && target.rel !== '' ? file.rel.slice(target.rel.length + 1) : file.rel;
    if (stats.isDirectory() && !inFilter(local)) continue;
    const lines = await readTextLines(file.real);
    if (lines === undefined) continue;
    for (let i = 0; i < lines.length; i++) {
      if (slice.spent()) await slice.yieldTurn();
      const line = lines[i] ?? '';
      if (!test(line.length > MAX_MATCH_CHARS ? line.slice(0, MAX_MATCH_CHARS) : line)) continue;
      if (matches.length === args.max_results) return { matches, truncated: true };
      matches.push(toMatch(file.rel, lines, i, args.context));
    }
  }
  return { matches, truncated: false };
}

/**
 * A glob without "/" matches file names at any depth, as ripgrep's --glob does. Done here rather than with
 * picomatch's `basename` option, which also applies to patterns that contain "/" and so breaks them.
 */
function fileFilter(glob: string): (local: string) => boolean {
  let matches: (path: string) => boolean;
  try {
    matches = picomatch(glob, { dot: true });
  } catch (error) {
    throw errors.badPattern(glob, describeThrown(error));
  }
  return glob.includes('/') ? matches : (local) => matches(local.slice(local.lastIndexOf('/') + 1));
}

/** Undefined for what grep skips: binary content, oversized files, and files that vanished or are unreadable. */
async function readTextLines(real: string): Promise<string[] | undefined> {
  let bytes: Buffer;
  try {
    if ((await stat(real)).size > MAX_FILE_BYTES) return undefined;
    bytes = await readFile(real);
  } catch (error) {
    if (isMissing(error) || isDenied(error)) return undefined;
    throw error;
  }
  if (looksBinary(bytes)) return undefined;
  const text = bytes.toString('utf8');
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  // A final newline ends the last line; it does not start an empty one.
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
}

function toMatch(path: string, lines: readonly string[], index: number, context: number): GrepMatch {
  const match: GrepMatch = { path, line: index + 1, text: clip(lines[index] ?? '') };
  if (context === 0) return match;
  match.before = lines.slice(Math.max(0, index - context), index).map(clip);
  match.after = lines.slice(index + 1, index + 1 + context).map(clip);
  return match;
}
