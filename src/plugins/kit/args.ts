// Reading a provider tool's arguments, which the host has already validated against the tool's schema.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RequestContext } from '../../host/index.js';

export type Args = Record<string, unknown>;
export type ToolHandler = (args: Args, ctx: RequestContext) => Promise<CallToolResult>;

/** A non-empty string, else undefined. */
export const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** The strings of an array argument, else undefined. */
export const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;

/** A whole number (a fraction is cut toward zero), else `fallback`. */
export const int = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : fallback;
