// The contract floor: what plugin authors and every area share. It imports nothing of ours; the package entry
// re-exports it whole.
export * from './plugin.js';
export * from './logger.js';
export * from './enricher.js';
export * from './shapes.js';
export * from './errors.js';
export * from './error-catalog.js';
export * from './durations.js';
export * from './field-name.js';
export * from './formats.js';
