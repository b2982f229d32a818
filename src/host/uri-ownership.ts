// Keeps the URIs a plugin returns inside the scheme it owns, so no plugin can speak for another's resources.
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/server';
import { errors } from '../contract/index.js';
import type { Mount } from './mount.js';
import type { RouteTable } from './routes.js';
import { uriScheme } from './names.js';

type UriRewriter = (uri: string) => string;

/** Local URIs move under the plugin's scheme; foreign absolute URIs are wrapped into it whole. */
export function createUriRewriter(mount: Mount, table: RouteTable): UriRewriter {
  return (uri) => {
    const scheme = uriScheme(uri);
    if (mount.scheme !== undefined) {
      if (scheme === mount.scheme) return uri;
      return `${mount.scheme}://${uri}`;
    }
    // A prefix-less plugin publishes absolute URIs as they are, but never in a scheme another plugin owns.
    const owner = scheme === undefined ? undefined : table.schemes.get(scheme);
    if (owner && owner !== mount) throw errors.foreignUri(uri, `plugin ${owner.label}`, mount.label);
    return uri;
  };
}

interface ContentBlock {
  type: string;
  uri?: unknown;
  resource?: { uri?: unknown };
}

function rewriteBlock<T>(block: T, rewrite: UriRewriter): T {
  const b = block as ContentBlock;
  if (b.type === 'resource_link' && typeof b.uri === 'string') return { ...block, uri: rewrite(b.uri) };
  if (b.type === 'resource' && b.resource && typeof b.resource.uri === 'string') {
    return { ...block, resource: { ...b.resource, uri: rewrite(b.resource.uri) } };
  }
  return block;
}

/** True when some block carries a URI; most results carry none and are passed on untouched. */
export function hasResourceBlocks(result: CallToolResult): boolean {
  return result.content.some((block) => block.type === 'resource' || block.type === 'resource_link');
}

export function rewriteToolResult(result: CallToolResult, rewrite: UriRewriter): CallToolResult {
  if (!Array.isArray(result.content)) return result;
  return { ...result, content: result.content.map((block) => rewriteBlock(block, rewrite)) };
}

export function rewriteReadResult(result: ReadResourceResult, rewrite: UriRewriter): ReadResourceResult {
  return { ...result, contents: result.contents.map((c) => ({ ...c, uri: rewrite(c.uri) })) };
}

export function rewritePromptResult(result: GetPromptResult, rewrite: UriRewriter): GetPromptResult {
  return {
    ...result,
    messages: result.messages.map((m) => ({ ...m, content: rewriteBlock(m.content, rewrite) })),
  };
}
