// Maps the changed files of a GitHub pull request to DiffFileShapes, with a size cap per file and per answer.
import type { DiffFileShape } from '../../contract/index.js';

/** Most characters of one file's diff; longer ones are cut at a line end and marked `truncated`. */
export const MAX_FILE_DIFF_CHARS = 20_000;
/** Most characters of diff text in one answer; files past it are left for the next page. */
export const MAX_DIFF_CHARS_PER_CALL = 100_000;

/** One entry of pulls.listFiles (GitHub's "diff-entry"). */
export interface GitHubDiffEntryJson {
  filename: string;
  status: string;
  additions?: number;
  deletions?: number;
  changes?: number;
  /** Left out by GitHub for binary files and for diffs too large to show. */
  patch?: string;
  previous_filename?: string;
}

const STATUS: Readonly<Record<string, DiffFileShape['status']>> = {
  added: 'added',
  removed: 'deleted',
  renamed: 'renamed',
  // A copy is a new file; "changed" (mode only) and "unchanged" are modifications at most.
  copied: 'added',
};

/** The first `max` characters of `text`, ending at a line end when there is one. */
function cutAtLine(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = text.lastIndexOf('\n', max);
  return text.slice(0, end > 0 ? end : max);
}

/** Pure. A file with changes but no patch is marked `truncated`: GitHub left its diff out. */
export function diffFileFromGitHub(raw: GitHubDiffEntryJson, maxChars = MAX_FILE_DIFF_CHARS): DiffFileShape {
  const status = STATUS[raw.status] ?? 'modified';
  const shape: DiffFileShape = { path: raw.filename, status };
  if (status === 'renamed' && raw.previous_filename) shape.oldPath = raw.previous_filename;
  if (typeof raw.additions === 'number') shape.additions = raw.additions;
  if (typeof raw.deletions === 'number') shape.deletions = raw.deletions;
  if (typeof raw.patch === 'string' && raw.patch !== '') {
    shape.diff = cutAtLine(raw.patch, maxChars);
    if (shape.diff.length < raw.patch.length) shape.truncated = true;
  } else if ((raw.changes ?? (raw.additions ?? 0) + (raw.deletions ?? 0)) > 0) {
    shape.truncated = true;
  }
  return shape;
}

/**
 * Pure: the leading files whose diffs fit in `maxChars` together (always at least one), so the answer
 * stays bounded and the next page starts right after the last file given.
 */
export function withinDiffBudget(
  files: DiffFileShape[],
  maxChars = MAX_DIFF_CHARS_PER_CALL,
): DiffFileShape[] {
  let used = 0;
  const kept: DiffFileShape[] = [];
  for (const file of files) {
    used += file.diff?.length ?? 0;
    if (kept.length > 0 && used > maxChars) break;
    kept.push(file);
  }
  return kept;
}
