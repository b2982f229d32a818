// The discovery area's public surface: a ranked, incrementally updated index over published tools, and which
// mode ([discovery]) is in force with what the full list costs.
export { createToolIndex } from './tool-index.js';
export type { SearchOptions, ToolBoost, ToolHit, ToolIndex } from './tool-index.js';
export type { IndexableTool } from './fields.js';
export * from './mode.js';
