// Tool names of a devboy-tools pipeline config (Claude Code's runtime names) as Foresight publishes them.
import { PUBLISHED_TOOL_NAME_PATTERN } from '../contract/index.js';

/** A devboy tool name mapped to ours, with the arguments whose names differ; or why it cannot be. */
export type MappedName =
  { published: string; args: Readonly<Record<string, string>>; renamed: boolean } | { unmapped: string };

/**
 * Claude Code's own file tools and the workspace plugin's tools that do the same, with the argument
 * names that differ (Read takes `file_path`, read_file `path`).
 */
const CLAUDE_CODE_TOOLS: Readonly<Record<string, { local: string; args: Record<string, string> }>> = {
  Read: { local: 'read_file', args: { file_path: 'path' } },
  Glob: { local: 'glob', args: {} },
  Grep: { local: 'grep', args: {} },
  LS: { local: 'list_directory', args: {} },
};

/** Claude Code's name for the tool `tool` of the MCP server `server`. */
const MCP_NAME = /^mcp__([^_][A-Za-z0-9_-]*?)__(.+)$/;

/**
 * Our published name for a devboy `[tools.<name>]` key or link target. `workspacePrefix` is the prefix of
 * the workspace plugin (default "workspace"). `mcp__<server>__<tool>` becomes `<server>__<tool>` (the
 * server's name taken as the plugin's prefix), or `<tool>` when that is already a published name with a
 * prefix (a tool of Foresight itself, mounted as `<server>`).
 */
export function mapToolName(name: string, workspacePrefix: string): MappedName {
  if (name === '*') return { published: '*', args: {}, renamed: false };
  const claude = Object.hasOwn(CLAUDE_CODE_TOOLS, name) ? CLAUDE_CODE_TOOLS[name] : undefined;
  if (claude !== undefined) {
    const published = workspacePrefix === '' ? claude.local : `${workspacePrefix}__${claude.local}`;
    return { published, args: claude.args, renamed: true };
  }
  const mcp = MCP_NAME.exec(name);
  if (mcp) {
    const [, server = '', tool = ''] = mcp;
    const published = tool.includes('__') ? tool : `${server}__${tool}`;
    if (PUBLISHED_TOOL_NAME_PATTERN.test(published)) return { published, args: {}, renamed: true };
  }
  if (/^[A-Z]/.test(name))
    return { unmapped: `Claude Code's ${name} has no counterpart among Foresight's tools` };
  if (!PUBLISHED_TOOL_NAME_PATTERN.test(name))
    return { unmapped: `not a tool name Foresight can publish (${PUBLISHED_TOOL_NAME_PATTERN.source})` };
  return { published: name, args: {}, renamed: false };
}
