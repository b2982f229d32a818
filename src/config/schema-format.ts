// The [format] table: how the format layer renders tracker and code-review results for the agent.
import { DEFAULT_BUDGET_TOKENS, OUTPUT_FORMATS, type OutputFormat } from '../contract/index.js';
import { closedTable, oneOf, positiveInt } from './leaf-schemas.js';

export interface FormatConfig {
  /** Largest answer, in estimated tokens, before lists and long text are trimmed; default 8000. */
  budgetTokens: number;
  /** What the `format` parameter defaults to; default "markdown". */
  defaultFormat: OutputFormat;
}

export const FormatConfigSchema = closedTable({
  budget_tokens: positiveInt('a positive whole number of tokens').default(DEFAULT_BUDGET_TOKENS),
  default: oneOf(OUTPUT_FORMATS).default('markdown'),
}).transform((raw): FormatConfig => ({ budgetTokens: raw.budget_tokens, defaultFormat: raw.default }));
