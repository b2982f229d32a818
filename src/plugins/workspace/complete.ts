// Completes the `path` argument of the file/{path} template from the directory the typed prefix names.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  type CompletionRequest,
  type CompletionResult,
  errors,
  isForesightError,
  type RequestContext,
} from '../../contract/index.js';
import { inheritedRules, rulesForChildren } from './ignores.js';
import { joinRel, resolveInRoot, type ResolvedPath } from './paths.js';
import { FILE_TEMPLATE } from './resource.js';
import { linkTarget, sortedEntries } from './walk.js';
import type { Workspace } from './workspace.js';

/** The host caps at 100 too; stopping here keeps `total` honest without building values nobody sees. */
const MAX_VALUES = 100;
const none = (): CompletionResult => ({ values: [], total: 0, hasMore: false });

export async function completePath(
  ws: Workspace,
  req: CompletionRequest,
  ctx: RequestContext,
): Promise<CompletionResult> {
  if (req.ref.type === 'ref/prompt') {
    throw errors.completionRefUnsupported(
      `prompt ${JSON.stringify(req.ref.name)}: the workspace plugin has no prompts`,
    );
  }
  if (req.ref.uri !== FILE_TEMPLATE) {
    throw errors.completionRefUnsupported(
      `resource ${req.ref.uri}: the workspace plugin's template is ${FILE_TEMPLATE}`,
    );
  }
  if (req.argument.name !== 'path') return none();
  const typed = req.argument.value;
  const cut = typed.lastIndexOf('/') + 1;
  const dirPart = typed.slice(0, cut);
  const namePrefix = typed.slice(cut);
  const dir = await existingDirectory(ws, dirPart);
  if (dir === undefined) return none();
  ctx.signal.throwIfAborted();
  const dirents = await sortedEntries(dir.real);
  const rules = await rulesForChildren(await inheritedRules(ws.root, dir.rel), dir.rel, dir.real, dirents);
  const values: string[] = [];
  let total = 0;
  for (const dirent of dirents) {
    if (!dirent.name.startsWith(namePrefix)) continue;
    if (rules.ignores(joinRel(dir.rel, dirent.name), dirent.isDirectory())) continue;
    let isDir = dirent.isDirectory();
    if (dirent.isSymbolicLink()) {
      // A link that leaves the root would only be refused on read, so it is not offered.
      const target = await linkTarget(ws.root, path.join(dir.real, dirent.name));
      if (target === undefined || target.kind === 'other') continue;
      isDir = target.kind === 'dir';
    } else if (!isDir && !dirent.isFile()) {
      continue;
    }
    total += 1;
    // The typed directory part is kept verbatim so every value extends what the user typed.
    if (values.length < MAX_VALUES) values.push(`${dirPart}${dirent.name}${isDir ? '/' : ''}`);
  }
  return { values, total, hasMore: total > values.length };
}

/** Escaping prefixes still throw (as everywhere); a prefix naming nothing just has no completions. */
async function existingDirectory(ws: Workspace, dirPart: string): Promise<ResolvedPath | undefined> {
  let dir: ResolvedPath;
  try {
    dir = await resolveInRoot(ws.root, dirPart);
  } catch (error) {
    if (isForesightError(error) && error.code === errors.pathNotFound.code) return undefined;
    throw error;
  }
  return (await stat(dir.real)).isDirectory() ? dir : undefined;
}
