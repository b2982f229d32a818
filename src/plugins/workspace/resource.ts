// The file/{path} resource template and its reader: a workspace file by path, text or (small) binary.
import { readFile, stat } from 'node:fs/promises';
import type {
  ReadResourceResult,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/server';
import { errors, type RequestContext } from '../../contract/index.js';
import { readLines, truncationHint, withHint } from './lines.js';
import { guessMimeType } from './mime.js';
import { displayPath, resolveInRoot } from './paths.js';
import type { Workspace } from './workspace.js';

/** Local URI template; the host publishes it as `<prefix>://file/{path}`. */
export const FILE_TEMPLATE = 'file/{path}';
const FILE_PREFIX = 'file/';

export const fileTemplate: ResourceTemplate = {
  uriTemplate: FILE_TEMPLATE,
  name: 'file',
  title: 'Workspace file',
  description: 'A file of the workspace by its path relative to the root, e.g. file/src/index.ts',
};

/** Clients expand `{path}` with "/" percent-encoded or not; both forms name the same file. */
function pathOf(uri: string): string {
  if (!uri.startsWith(FILE_PREFIX) || uri.length === FILE_PREFIX.length) throw errors.resourceNotFound(uri);
  try {
    return decodeURIComponent(uri.slice(FILE_PREFIX.length));
  } catch {
    throw errors.resourceNotFound(uri);
  }
}

export async function readFileResource(
  ws: Workspace,
  uri: string,
  ctx: RequestContext,
): Promise<ReadResourceResult> {
  const file = await resolveInRoot(ws.root, pathOf(uri));
  const shown = displayPath(file.rel);
  const stats = await stat(file.real);
  if (!stats.isFile()) throw errors.notAFile(shown);
  const range = await readLines(file.real, {
    startLine: 1,
    endLine: Infinity,
    maxBytes: ws.maxReadBytes,
    signal: ctx.signal,
  });
  if (!range.binary) {
    const text = range.truncated
      ? withHint(range.text, truncationHint(range, Infinity, ws.maxReadBytes))
      : range.text;
    return { contents: [{ uri, mimeType: guessMimeType(file.rel, false), text }] };
  }
  // A resource, unlike read_file, can carry bytes: small images and the like go out as a blob.
  if (stats.size > ws.maxReadBytes) throw errors.fileTooLarge(shown, stats.size, ws.maxReadBytes);
  const blob = (await readFile(file.real)).toString('base64');
  return { contents: [{ uri, mimeType: guessMimeType(file.rel, true), blob }] };
}
