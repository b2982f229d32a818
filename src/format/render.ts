// Renders structured data in one format within a token budget: the one entry point for every format.
import { fitDoc } from './budget.js';
import { compactWriter } from './compact.js';
import type { ListSlot } from './doc.js';
import { DEFAULT_BUDGET_TOKENS, type OutputFormat } from '../contract/index.js';
import { type RenderedText } from './formats.js';
import { genericDoc, genericList } from './generic.js';
import { markdownWriter } from './markdown.js';
import { renderSerialized, serializers } from './serialized.js';
import { asShaped, shapedDoc, shapedList } from './shaped-doc.js';

function listOf(data: unknown): ListSlot | undefined {
  const shaped = asShaped(data);
  return shaped ? shapedList(shaped) : genericList(data);
}

/** Renders a ShapedResult (see src/enrich/shapes.ts), or any JSON value, in `format` within the token budget. */
export function renderStructured(
  data: unknown,
  format: OutputFormat,
  options: { budgetTokens?: number } = {},
): RenderedText {
  const budgetTokens = options.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  if (format === 'json' || format === 'toon') {
    return renderSerialized(data, serializers[format], listOf, budgetTokens);
  }
  const shaped = asShaped(data);
  const writer = format === 'markdown' ? markdownWriter : compactWriter;
  return fitDoc(shaped ? shapedDoc(shaped, writer) : genericDoc(data, format), budgetTokens);
}
