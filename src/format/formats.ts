// The output formats a caller can ask for, the default token budget, and what a rendering returns.

export const OUTPUT_FORMATS = ['markdown', 'compact', 'json', 'toon'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Largest answer, in estimated tokens, before lists and long text are trimmed. */
export const DEFAULT_BUDGET_TOKENS = 8000;

export function isOutputFormat(value: unknown): value is OutputFormat {
  return (OUTPUT_FORMATS as readonly unknown[]).includes(value);
}

/** Text rendered within a budget. */
export interface RenderedText {
  text: string;
  /** Estimated tokens of `text`. */
  tokens: number;
  /** Set when items or text were cut. */
  trimmed?: { shownItems?: number; totalItems?: number; nextOffset?: number };
}
