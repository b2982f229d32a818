// The loaded configuration as the rest of Foresight sees it: camelCase, defaults applied, each part knowing its place in the file.
import type { KeyLines } from './key-path.js';
import type { AuthConfig } from './schema-auth.js';
import type { DiscoveryConfig } from './schema-discovery.js';
import type { DeclarativeEnrichRule } from './schema-enrich.js';
import type { AuditConfig } from './schema-audit.js';
import type { ClusterConfig } from './schema-cluster.js';
import type { PlannerConfig } from './schema-file.js';
import type { FormatConfig } from './schema-format.js';
import type { PluginCacheHints, PluginDeadlines, PluginIsolation, ToolFilter } from './schema-plugin.js';
import type { ServerConfig } from './schema-server.js';
import type { ToolOverride } from './schema-tools.js';

/** Where a plugin's code comes from: a built-in kind, or a module file (absolute path). */
export type PluginOrigin = { type: 'builtin'; kind: string } | { type: 'module'; path: string };

export interface PluginEntry {
  /** Instance name: the table name in [plugins.<name>]. */
  name: string;
  /** `use = "kind"`, `module = "path"` (resolved against baseDir), or by default the built-in named like the table. */
  origin: PluginOrigin;
  /** Namespace of published names; default the instance name, "" for none. */
  prefix: string;
  /** Default true. */
  enabled: boolean;
  /** Per-method deadlines: deadline_ms (default 30000) for calls, 10000 for start and shutdown. */
  deadlinesMs: PluginDeadlines;
  /** Default "inline". */
  isolation: PluginIsolation;
  /** cache_ttl_ms (default 0) and cache_scope (default "private"): caching hints for 2026-07-28 clients. */
  cache: PluginCacheHints;
  /** `tools.allow` / `tools.deny`: which of the plugin's tools are published (default all). */
  tools: ToolFilter;
  /** Every non-host key of the table, raw: the plugin validates them (see validatePluginOptions). */
  options: Record<string, unknown>;
  /** The config file, or undefined for the embedded default. */
  file?: string;
  /** Line of the table's header (0 when not from a file). */
  line: number;
  /** Lines of the keys inside the table, by path relative to it, for error messages. */
  keyLines: KeyLines;
  /** Directory that relative paths in the options are resolved against (the config file's). */
  baseDir: string;
}

export interface ForesightConfig {
  /** Absolute path of the file read, or undefined for the embedded default. */
  file?: string;
  /** The config file's directory (the working directory for the embedded default). */
  baseDir: string;
  server: ServerConfig;
  /** [auth]: OAuth access tokens (JWT) HTTP clients must present; default none. */
  auth?: AuthConfig;
  /** In file order. */
  plugins: PluginEntry[];
  /** [[enrich]] rules in file order. */
  enrich: DeclarativeEnrichRule[];
  /** [format]: the format layer's budget and default. */
  format: FormatConfig;
  planner: PlannerConfig;
  /** [discovery]: every tool in tools/list, or search meta-tools; default "auto" ("all" for the embedded default). */
  discovery: DiscoveryConfig;
  /** [tools."<published name>"] overrides, by published tool name. */
  tools: Record<string, ToolOverride>;
  /** [audit]: one JSON line per tool call. */
  audit: AuditConfig;
  /** [cluster]: processes sharing state through Redis; default none (one process, all in memory). */
  cluster?: ClusterConfig;
}
