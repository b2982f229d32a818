// Types of the enricher contract: what a plugin or the config supplies to fit tool schemas to a user's projects.
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/server';

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
  /** The tool's MCP annotations as its plugin publishes them. */
  annotations?: ToolAnnotations;
  /** The plugin asks for the format layer (a `format` parameter) on this tool, whatever its category. */
  formatted?: boolean;
}

/** Key set on a parameter whose enum values came from an enricher, not from the plugin. */
export const ENRICHED_ENUM_MARKER = 'x-foresight-enriched';

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
  /** Tools whose cached results a call of this tool makes stale. */
  invalidates: string[];
  /**
   * Parameters of this tool that name the one object it changes (e.g. `key`): a cached result of an
   * invalidated tool survives only when its arguments give such a parameter a different value. Unset =
   * every cached result of the invalidated tools goes.
   */
  invalidateBy?: string[];
  rateLimitHost?: string;
  /** Hard override of whether the planner may run the tool ahead (otherwise: only pure and read_only tools). */
  speculate?: boolean;
  /**
   * The tool answers the same whoever asks (one token, one file system for every client session), so
   * a result run ahead for one session may serve another. Unset = results stay in their session.
   */
  sessionIndependent?: boolean;
}

/**
 * A tool's input JSON Schema with editing helpers; every keyword it does not touch ($schema, $defs, $ref,
 * oneOf, nested objects, additionalProperties, unknown keywords) survives unchanged. Parameters are the
 * top-level `properties`. A method that edits a parameter throws when the parameter does not exist
 * (check with `param()` first); `removeParams` and `setRequired(name, false)` ignore missing ones.
 */
export interface ToolSchema {
  /** A copy of the parameter's schema, or undefined. */
  param(name: string): Record<string, unknown> | undefined;
  /** Names of the parameters, in schema order. */
  paramNames(): string[];
  /** Adds or replaces a parameter. */
  addParam(name: string, schema: Record<string, unknown>, options?: { required?: boolean }): void;
  /** Removes parameters and their `required` entries. */
  removeParams(names: readonly string[]): void;
  /** Replaces the allowed values (on `items` for an array parameter) and marks them as enriched. */
  setEnum(name: string, values: readonly unknown[]): void;
  /** Adds allowed values to those already there, keeping their order and skipping duplicates. */
  addEnumValues(name: string, values: readonly unknown[]): void;
  setRequired(name: string, required?: boolean): void;
  setDefault(name: string, value: unknown): void;
  setParamDescription(name: string, text: string): void;
  /**
   * Shows the parameter under a new name. The host maps the new name back before this enricher's
   * `transformArgs` runs, so the enricher and the plugin keep seeing the old one.
   */
  renameParam(from: string, to: string): void;
  /** The tool's description. */
  setDescription(text: string): void;
  /** Merges into the tool's MCP annotations (e.g. `{ readOnlyHint: true }`). */
  setAnnotations(annotations: ToolAnnotations): void;
  /** The input schema as the agent will see it. */
  toJSON(): Record<string, unknown>;
}

/**
 * Fits tools to the user's projects. The host runs enrichers as a chain: schemas in registration order
 * (a plugin's own enrichers, then global ones), arguments back through the chain in reverse, so each
 * enricher receives arguments in the shape its own schema edits produced.
 */
export interface ToolEnricher {
  /** Names the enricher in errors and logs; default its class name. */
  readonly name?: string;
  /**
   * The categories this enricher serves. It sees tools of these categories (and, when a plugin supplies
   * it, that plugin's tools without a category), and a tool with a category is listed only while some
   * enricher serves it. An enricher that returns no categories is cross-cutting: it sees every tool and
   * makes no tool visible.
   */
  supportedCategories(): readonly ToolCategory[];
  /** Edits the schema during tools/list. Throwing hides this tool and is logged, naming the enricher. */
  enrichSchema(tool: ToolRef, schema: ToolSchema): void;
  /** Maps the agent's arguments back to what the layer below expects, in place; throw a PluginError to refuse. */
  transformArgs(tool: ToolRef, args: Record<string, unknown>): void;
  /**
   * Rewrites the result on its way to the agent (e.g. renders it in a requested format). `args` are the
   * arguments as this enricher received them in `transformArgs`. Runs in registration order.
   */
  transformResult?(
    tool: ToolRef,
    result: CallToolResult,
    args: Readonly<Record<string, unknown>>,
  ): CallToolResult;
  valueModel?(tool: ToolRef): ToolValueModel | undefined;
  /**
   * Argument sets for a follow-up link when a projection path cannot say them; undefined = use the
   * link's projection. `prevArgs` are the arguments the previous call's plugin received (the host
   * always passes them).
   */
  projectArgs?(
    prev: ToolRef,
    prevResult: CallToolResult,
    link: FollowUpLink,
    prevArgs?: Readonly<Record<string, unknown>>,
  ): Record<string, unknown>[] | undefined;
  rateLimitHost?(tool: ToolRef, args: Record<string, unknown>): string | undefined;
  /**
   * For a result the planner fetched ahead, from a call with these (plugin-side) arguments that began
   * at `fetchedAtMs` (epoch ms): false when what it read may have changed since (say, a file edited
   * outside Foresight), and the agent's call then goes upstream. Keep it quick and synchronous: a stat,
   * not a read. Without it, a result is fresh until its TTL ends or a write invalidates it.
   */
  isFresh?(tool: ToolRef, args: Readonly<Record<string, unknown>>, fetchedAtMs: number): boolean;
  /**
   * Called once when the host registers the enricher. Call `changed()` whenever what `enrichSchema`
   * would produce changes (new metadata): the host rebuilds the enriched list and tells clients if
   * the tools they see changed.
   */
  watch?(changed: () => void): void;
}
