// Public surface of the format area: output formats, the token budget, token counting and the format enricher.
export type { RenderedText } from './formats.js';
export { createFormatEnricher, type FormatOptions } from './enricher.js';
export { renderStructured } from './render.js';
export { countTokens } from './tokens.js';
