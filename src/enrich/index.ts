// Public surface of the enrich area.
export type {
  ToolCategory,
  ToolRef,
  ToolSchema,
  ToolEnricher,
  FollowUpLink,
  ToolValueModel,
} from './contract.js';
export { TOOL_CATEGORIES } from './contract.js';
export { createArgumentValidator, type ArgumentValidator } from './validate.js';
