// The one way a provider tool answers with data: a shaped result for the format layer, its JSON as text for the rest.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CommentShape, ShapedResult } from '../../contract/index.js';

/** `summary` replaces the JSON text, for writes whose answer a person reads ("Created #12: …"). */
export function shapedResult(data: ShapedResult, summary?: string): CallToolResult {
  return {
    content: [{ type: 'text', text: summary ?? JSON.stringify(data) }],
    structuredContent: data as unknown as Record<string, unknown>,
  };
}

/** The answer of a write: "Created #12: Fix the login" and the item's URL, over the item as it now is. */
export function writtenResult(
  verb: string,
  data: Extract<ShapedResult, { kind: 'issue' | 'merge_request' }>,
): CallToolResult {
  const { key, title, url } = data.item;
  return shapedResult(data, `${verb} ${key}: ${title}${url ? `\n${url}` : ''}`);
}

/** The answer of a new comment: "Commented on #12" and its URL; no comment when the provider sent none back. */
export function commentedResult(where: string, comment: CommentShape | undefined): CallToolResult {
  return shapedResult(
    { kind: 'comment_list', items: comment ? [comment] : [] },
    `Commented on ${where}${comment?.url ? `\n${comment.url}` : ''}`,
  );
}
