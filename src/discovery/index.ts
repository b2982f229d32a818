// The discovery area's public surface (for now: which mode is in force, and what the full list costs).
export * from './mode.js';
