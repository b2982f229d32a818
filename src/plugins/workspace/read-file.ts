// The read_file tool: a text file, or a line range of it, within the configured byte limit.
import { stat } from 'node:fs/promises';
import * as z from 'zod';
import { errors } from '../../contract/index.js';
import { readLines, truncationHint, withHint } from './lines.js';
import { requiredPathParam } from './params.js';
import { displayPath, resolveInRoot } from './paths.js';
import { defineTextTool, type WorkspaceTool } from './tool.js';
import type { Workspace } from './workspace.js';

export function createReadFileTool(ws: Workspace): WorkspaceTool {
  return defineTextTool({
    name: 'read_file',
    title: 'Read a file',
    description:
      'Returns the text of a workspace file, or of the lines start_line..end_line (1-based, inclusive). ' +
      `At most ${ws.maxReadBytes} bytes come back at once; a longer answer ends with a "[truncated: …]" note ` +
      'naming the lines to ask for next. Binary files are refused.',
    input: z.strictObject({
      path: requiredPathParam('file path relative to the workspace root, e.g. "src/index.ts"'),
      start_line: z.number().int().min(1).optional().describe('first line to return, 1-based (default 1)'),
      end_line: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe('last line to return, inclusive (default: end of file)'),
    }),
    async run(args, ctx) {
      const file = await resolveInRoot(ws.root, args.path);
      const shown = displayPath(file.rel);
      const stats = await stat(file.real);
      if (stats.isDirectory()) throw errors.notAFile(shown);
      if (!stats.isFile())
        throw errors.invalidArguments('read_file', `${JSON.stringify(shown)} is not a regular file`);
      const startLine = args.start_line ?? 1;
      const endLine = args.end_line ?? Infinity;
      if (endLine < startLine) {
        throw errors.invalidArguments('read_file', `end_line ${endLine} is before start_line ${startLine}`);
      }
      const range = await readLines(file.real, {
        startLine,
        endLine,
        maxBytes: ws.maxReadBytes,
        signal: ctx.signal,
      });
      if (range.binary) throw errors.binaryFile(shown);
      // Line 1 of an empty file is still a fair request: the answer is simply empty.
      if (startLine > Math.max(range.totalLines, 1))
        throw errors.lineOutOfRange(shown, startLine, range.totalLines);
      return range.truncated
        ? withHint(range.text, truncationHint(range, endLine, ws.maxReadBytes))
        : range.text;
    },
  });
}
