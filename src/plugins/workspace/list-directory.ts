// The list_directory tool: a directory's entries with their type and size, ignored ones hidden unless asked for.
import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { errors } from '../../contract/index.js';
import { inheritedRules, rulesForChildren } from './ignores.js';
import { maxResultsParam, pathParam } from './params.js';
import { displayPath, isMissing, joinRel, resolveInRoot } from './paths.js';
import { defineTool, type WorkspaceTool } from './tool.js';
import { sortedEntries } from './walk.js';
import type { Workspace } from './workspace.js';

const EntrySchema = z.object({
  name: z.string(),
  path: z.string().describe('relative to the workspace root'),
  type: z.enum(['dir', 'file', 'symlink']),
  size: z.number().int().optional().describe('size in bytes, for files'),
});
const ListOutput = z.object({
  path: z.string().describe('the listed directory, relative to the workspace root ("." for the root)'),
  entries: z.array(EntrySchema),
  ignored: z
    .number()
    .int()
    .describe('entries hidden because .git, node_modules or a .gitignore excludes them'),
  truncated: z.boolean().describe('true when the directory has more entries than max_results'),
});
type ListResult = z.output<typeof ListOutput>;
type Entry = z.output<typeof EntrySchema>;

export function createListDirectoryTool(ws: Workspace): WorkspaceTool {
  return defineTool({
    name: 'list_directory',
    title: 'List a directory',
    description:
      'Lists the entries of a workspace directory in name order: directories (shown with a trailing "/"), ' +
      'files with their size in bytes, and symlinks. Hides .git, node_modules and .gitignored entries unless ' +
      'include_ignored is true.',
    input: z.strictObject({
      path: pathParam('directory to list'),
      include_ignored: z
        .boolean()
        .default(false)
        .describe('also list .git, node_modules and .gitignored entries'),
      max_results: maxResultsParam(ws.maxResults, 'most entries to return'),
    }),
    output: ListOutput,
    async run(args, ctx) {
      const dir = await resolveInRoot(ws.root, args.path);
      if (!(await stat(dir.real)).isDirectory()) throw errors.notADirectory(displayPath(dir.rel));
      ctx.signal.throwIfAborted();
      const dirents = await sortedEntries(dir.real);
      const rules = await rulesForChildren(
        await inheritedRules(ws.root, dir.rel),
        dir.rel,
        dir.real,
        dirents,
      );
      const result: ListResult = { path: displayPath(dir.rel), entries: [], ignored: 0, truncated: false };
      for (const dirent of dirents) {
        const rel = joinRel(dir.rel, dirent.name);
        const type = dirent.isDirectory()
          ? 'dir'
          : dirent.isSymbolicLink()
            ? 'symlink'
            : dirent.isFile()
              ? 'file'
              : undefined;
        // Sockets, FIFOs and devices are neither readable nor listable through this plugin.
        if (type === undefined) continue;
        if (!args.include_ignored && rules.ignores(rel, type === 'dir')) {
          result.ignored += 1;
          continue;
        }
        if (result.entries.length === args.max_results) {
          result.truncated = true;
          break;
        }
        const entry: Entry = { name: dirent.name, path: rel, type };
        if (type === 'file') {
          const size = await sizeOf(path.join(dir.real, dirent.name));
          if (size === undefined) continue;
          entry.size = size;
        }
        result.entries.push(entry);
      }
      return { text: formatListing(result), structured: result };
    },
  });
}

/** Undefined when the file vanished between the listing and the lstat. */
async function sizeOf(real: string): Promise<number | undefined> {
  try {
    return (await lstat(real)).size;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function formatListing(result: ListResult): string {
  const rows = result.entries.map((e) =>
    e.type === 'dir'
      ? `${e.name}/`
      : e.type === 'symlink'
        ? `${e.name}@ (symlink)`
        : `${e.name} (${e.size} bytes)`,
  );
  if (rows.length === 0) rows.push('(no entries)');
  if (result.truncated)
    rows.push(`[truncated: first ${result.entries.length} entries shown; raise max_results]`);
  if (result.ignored > 0) {
    rows.push(
      `[${result.ignored} ignored entries hidden (.git, node_modules, .gitignore); pass include_ignored: true]`,
    );
  }
  return `${result.path}:\n${rows.join('\n')}`;
}
