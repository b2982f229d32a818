// The shape of one fixture tool, and the small result and argument helpers every fixture shares.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { describeThrown, errors, type RequestContext, type ToolDescriptor } from '../../contract/index.js';

export interface FixtureTool {
  descriptor: ToolDescriptor;
  run(args: Record<string, unknown>, ctx: RequestContext): Promise<CallToolResult>;
}

/** The input schema of a tool that takes no arguments. */
export const NO_ARGUMENTS: ToolDescriptor['inputSchema'] = { type: 'object', properties: {} };

export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

export function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** The host validates arguments against the schema first; this keeps a direct caller honest too. */
export function requireString(args: Record<string, unknown>, name: string, tool: string): string {
  const value = args[name];
  if (typeof value !== 'string') {
    throw errors.invalidArguments(
      `tool ${JSON.stringify(tool)}`,
      `${name} must be a string, got ${typeof value}`,
    );
  }
  return value;
}

/** A client that cannot or will not answer gets a readable tool error; an aborted call stays the host's to report. */
export function failedUnlessAborted(ctx: RequestContext, error: unknown, request: string): CallToolResult {
  if (ctx.signal.aborted) throw error;
  return errorResult(`${request} failed: ${describeThrown(error)}`);
}
