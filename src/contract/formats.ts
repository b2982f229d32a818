// The output formats a caller can ask for, and the default token budget.

export const OUTPUT_FORMATS = ['markdown', 'compact', 'json', 'toon'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Largest answer, in estimated tokens, before lists and long text are trimmed. */
export const DEFAULT_BUDGET_TOKENS = 8000;
