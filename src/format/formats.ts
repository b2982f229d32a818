// Checking a requested output format, and what a rendering returns.
import { OUTPUT_FORMATS, type OutputFormat } from '../contract/index.js';

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
