// The files a source file imports by relative path: what an agent reading it is likely to open next.
import { statSync } from 'node:fs';
import path from 'node:path';
import { type WorkspaceRoot, normalizeRel } from './paths.js';

/** `from './x'`, `import './x'`, `import('./x')`, `require('./x')`: relative specifiers only. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"\n]+)['"]/g;

/** What a specifier may name on disk: as written, TypeScript's `.js` → `.ts`, or with an extension or index added. */
function candidates(target: string): string[] {
  const ext = path.posix.extname(target);
  if (ext === '.js' || ext === '.mjs' || ext === '.cjs' || ext === '.jsx') {
    const stem = target.slice(0, -ext.length);
    const ts = ext === '.jsx' ? '.tsx' : ext.replace('j', 't');
    return [target, `${stem}${ts}`, `${stem}.tsx`];
  }
  if (ext !== '') return [target];
  return ['.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.js'].map((suffix) => `${target}${suffix}`);
}

function isFile(root: WorkspaceRoot, rel: string): boolean {
  try {
    return statSync(path.join(root.real, rel)).isFile();
  } catch {
    return false;
  }
}

/**
 * Root-relative paths of the files `text` (the content of `fromPath`) imports by relative specifier, in
 * order of first appearance, at most `limit`, each checked to exist inside the root. Bare package names
 * are left out: they live in node_modules, which the workspace does not serve.
 */
export function importedFiles(root: WorkspaceRoot, fromPath: string, text: string, limit: number): string[] {
  let dir: string;
  try {
    dir = path.posix.dirname(normalizeRel(fromPath));
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[1];
    if (specifier === undefined) continue;
    const joined = path.posix.normalize(path.posix.join(dir, specifier));
    // Outside the root: not ours to read.
    if (joined.startsWith('..')) continue;
    const file = candidates(joined).find((candidate) => isFile(root, candidate));
    if (file === undefined || found.includes(file)) continue;
    found.push(file);
    if (found.length === limit) break;
  }
  return found;
}
