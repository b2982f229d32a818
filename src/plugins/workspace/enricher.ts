// The workspace plugin's enricher: serves the `workspace` category, and gives the planner each tool's value model.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolEnricher, ToolRef, ToolValueModel } from '../../contract/index.js';
import { importedFiles } from './imports.js';
import { type WorkspaceRoot, normalizeRel } from './paths.js';

/**
 * The read_file follow-up of a search: where the result's paths are, and how often an agent reads a file
 * right after. Probabilities are Glob→Read (0.32) and Grep→Read (0.35) at lag 1 in the agent tool-call
 * corpus (bench/data/agent-corpus: about 3,185 Claude Code sessions).
 */
const READ_FILE_FOLLOW_UPS: Readonly<Record<string, { projection: string; probability: number }>> = {
  glob: { projection: 'paths[*]', probability: 0.32 },
  grep: { projection: 'matches[*].path', probability: 0.35 },
};

/**
 * The seeds' and devboy-tools' name for "the path of each match" (`projection = "match_path"`). Neither
 * search answers a field of that name, so the plugin reads it as the paths its glob and grep found.
 */
const MATCH_PATH = 'match_path';
/** Paths projected per search for a `match_path` link: a listing the agent may work through. */
const MATCHES_LIMIT = 20;

/** The files a glob or grep result found, in its order, or undefined for other tools. */
function matchedPaths(tool: string, result: CallToolResult): string[] | undefined {
  const data = result.structuredContent as { paths?: unknown; matches?: unknown } | undefined;
  const found =
    tool === 'glob' && Array.isArray(data?.paths)
      ? data.paths
      : tool === 'grep' && Array.isArray(data?.matches)
        ? data.matches.map((match: { path?: unknown }) => match.path)
        : undefined;
  if (found === undefined) return undefined;
  return [...new Set(found.filter((path): path is string => typeof path === 'string'))].slice(
    0,
    MATCHES_LIMIT,
  );
}

/**
 * read_file → read_file of a file it imports. A prior, not a measurement: the corpus says an agent
 * reads again right after a read 44% of the time (Read→Read at lag 1), not which file; learning finds
 * how often it is an import.
 */
const IMPORT_FOLLOW_UP_PROBABILITY = 0.3;
/** Imports projected per read: a listing the agent may work through (see the planner's listings). */
const IMPORTS_LIMIT = 20;

/**
 * Typical answer sizes in KB: the corpus's median response sizes, rounded up (Glob 156 characters,
 * Grep 246, Read 2,473). The median, not a high percentile: the planner spends its token budget on
 * what it expects to pay, and a p90 size would let one read ahead fill it.
 */
const TYPICAL_KB: Readonly<Record<string, number>> = { glob: 1, grep: 1, read_file: 3, list_directory: 1 };

/** The same tool name under the caller's prefix: follow-ups publish where their source does. */
function sibling(tool: ToolRef, local: string): string {
  return `${tool.published.slice(0, tool.published.length - tool.name.length)}${local}`;
}

/**
 * How much older than the read a file's times must be for the read to have seen its content. The
 * kernel stamps files from a clock that advances once per tick (a few ms), so a write just after the
 * read began can carry a time just before it; file systems that keep whole seconds (FAT keeps two)
 * are further off.
 */
function timestampSlackMs(timeMs: number): number {
  return timeMs % 1000 === 0 ? 2_000 : 50;
}

/**
 * True when the file `read_file` read has not changed since `fetchedAtMs`: its mtime and ctime (which
 * a rename over it also moves) are older than the read, by more than the timestamps' granularity.
 * The agent edits files with its own tools, outside Foresight, so no write here could invalidate them.
 */
function fileUnchangedSince(root: WorkspaceRoot, input: unknown, fetchedAtMs: number): boolean {
  if (typeof input !== 'string') return false;
  try {
    const stats = statSync(path.join(root.real, normalizeRel(input)));
    const changedAtMs = Math.max(stats.mtimeMs, stats.ctimeMs);
    return changedAtMs + timestampSlackMs(changedAtMs) < fetchedAtMs;
  } catch {
    // Gone, or not a path we serve: the real call says what it is.
    return false;
  }
}

export function createWorkspaceEnricher(root: WorkspaceRoot): ToolEnricher {
  return {
    name: 'workspace',
    supportedCategories: () => ['workspace'],
    // The tools' schemas are exact already: there is nothing of the user's world to fit them to.
    enrichSchema: () => {},
    transformArgs: () => {},
    valueModel(tool): ToolValueModel | undefined {
      const typicalKb = TYPICAL_KB[tool.name];
      if (typicalKb === undefined) return undefined;
      const followUp = READ_FILE_FOLLOW_UPS[tool.name];
      const readFile = sibling(tool, 'read_file');
      return {
        valueClass: tool.name === 'read_file' ? 'critical' : 'supporting',
        sideEffect: 'read_only',
        cost: { typicalKb },
        followUp: followUp
          ? [{ tool: readFile, ...followUp, projectionArg: 'path' }]
          : tool.name === 'read_file'
            ? [{ tool: readFile, probability: IMPORT_FOLLOW_UP_PROBABILITY }]
            : [],
        invalidates: [],
        // One file tree for every client session.
        sessionIndependent: true,
      };
    },
    // A file's relative imports are what an agent reading it opens next; no path syntax can say that.
    projectArgs(prev, result, link, prevArgs) {
      const matched = link.projection === MATCH_PATH ? matchedPaths(prev.name, result) : undefined;
      if (matched !== undefined) return matched.map((file) => ({ [link.projectionArg ?? 'path']: file }));
      if (prev.name !== 'read_file' || link.tool !== prev.published) return undefined;
      const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
      const from = typeof prevArgs?.path === 'string' ? prevArgs.path : '';
      return importedFiles(root, from, text, IMPORTS_LIMIT).map((file) => ({ path: file }));
    },
    // Only read_file is ever a follow-up; a listing run ahead would need a walk to check, so its TTL rules.
    isFresh: (tool, args, fetchedAtMs) =>
      tool.name !== 'read_file' || fileUnchangedSince(root, args.path, fetchedAtMs),
  };
}
