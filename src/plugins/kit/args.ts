// Reading a provider tool's arguments, which the host has already validated against the tool's schema.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { errors, type RequestContext } from '../../contract/index.js';

export type Args = Record<string, unknown>;
export type ToolHandler = (args: Args, ctx: RequestContext) => Promise<CallToolResult>;

/** A provider's callTool over its handlers by local tool name; a name without one is "tool not found". */
export function dispatchTo(
  handlers: Readonly<Record<string, ToolHandler | undefined>>,
): (name: string, args: Args, ctx: RequestContext) => Promise<CallToolResult> {
  return async (name, args, ctx) => {
    const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
    if (!handler) throw errors.toolNotFound(name);
    return handler(args, ctx);
  };
}

/** A non-empty string, else undefined. */
export const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** The strings of an array argument, else undefined. */
export const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;

/** A whole number (a fraction is cut toward zero), else `fallback`. */
export const int = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : fallback;
