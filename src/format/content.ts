// The budget for results without structuredContent: text blocks are kept in order and cut, other blocks pass through.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { cutWithNote } from './text.js';
import { tokensWithin } from './tokens.js';

type Content = CallToolResult['content'];

/** The text blocks within `budgetTokens` in all: the first one over is cut at a safe boundary, later ones left out. */
export function fitTextContent(content: Content, budgetTokens: number): Content {
  let left = budgetTokens;
  let dropped = 0;
  const out: Content = [];
  for (const block of content) {
    if (block.type !== 'text') {
      out.push(block);
      continue;
    }
    if (left <= 0) {
      dropped++;
      continue;
    }
    const tokens = tokensWithin(block.text, left);
    if (tokens !== undefined) {
      out.push(block);
      left -= tokens;
      continue;
    }
    // Too little room left to show a useful start of it: it counts as left out.
    const cut = cutWithNote(block.text, left - 1, budgetTokens);
    if (cut === undefined) dropped++;
    else out.push({ ...block, text: `${cut.text}\n\n${cut.note}` });
    left = 0;
  }
  if (dropped > 0) {
    out.push({
      type: 'text',
      text: `[${dropped} more text block${dropped === 1 ? '' : 's'} left out to fit a budget of about ${budgetTokens} tokens (estimated)]`,
    });
  }
  return out;
}
