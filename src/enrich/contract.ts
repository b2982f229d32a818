// Types of the enricher contract: what a plugin or the config supplies to fit tool schemas to a user's projects.
// Issue-3 work (the executor that runs the chain) builds on these; the host only carries them today.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const TOOL_CATEGORIES = [
  'issue_tracker',
  'git_repository',
  'epics',
  'releases',
  'knowledge_base',
  'messenger',
  'meeting_notes',
  'workspace',
] as const;
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

export interface ToolRef {
  plugin: string;
  /** The plugin's own name for the tool. */
  name: string;
  /** The name a client sees. */
  published: string;
  category?: ToolCategory;
}

export interface FollowUpLink {
  tool: string;
  probability: number;
  projection?: string;
  projectionArg?: string;
}

export interface ToolValueModel {
  valueClass: 'critical' | 'supporting' | 'optional' | 'audit_only';
  sideEffect: 'pure' | 'read_only' | 'mutates_local' | 'mutates_external' | 'indeterminate';
  cost: { typicalKb: number; latencyMsP50?: number; freshnessTtlS?: number };
  followUp: FollowUpLink[];
  invalidates: string[];
  rateLimitHost?: string;
  speculate?: boolean;
}

/** A tool's input JSON Schema with editing helpers; unknown keywords survive untouched. */
export interface ToolSchema {
  param(name: string): Record<string, unknown> | undefined;
  addParam(name: string, schema: Record<string, unknown>, options?: { required?: boolean }): void;
  removeParams(names: readonly string[]): void;
  setEnum(name: string, values: readonly unknown[]): void;
  setRequired(name: string, required?: boolean): void;
  setDefault(name: string, value: unknown): void;
  setParamDescription(name: string, text: string): void;
  setDescription(text: string): void;
  toJSON(): Record<string, unknown>;
}

export interface ToolEnricher {
  supportedCategories(): readonly ToolCategory[];
  enrichSchema(tool: ToolRef, schema: ToolSchema): void;
  transformArgs(tool: ToolRef, args: Record<string, unknown>): void;
  valueModel?(tool: ToolRef): ToolValueModel | undefined;
  projectArgs?(
    prev: ToolRef,
    prevResult: CallToolResult,
    link: FollowUpLink,
  ): Record<string, unknown>[] | undefined;
  rateLimitHost?(tool: ToolRef, args: Record<string, unknown>): string | undefined;
}
