// Public surface of the enrich area: the enrichment pipeline, [[enrich]] rules and the argument validator.
export { createArgumentValidator, type ArgumentValidator } from './validate.js';
export { EditableToolSchema } from './tool-schema.js';
export { ToolPipeline, type ToolPipelineOptions } from './pipeline.js';
export type { PreparedCall } from './call-stages.js';
export type { EnrichedTool } from './enrich-tool.js';
export type { ChainLink } from './chain.js';
export { createDeclarativeEnrichers } from './declarative.js';
export { type ConfigRules, type ConfigRulesOptions, createConfigRules } from './config-rules.js';
export type { RuleReport } from './rule-reach.js';
export { unseenPlugins } from './rule-reach.js';
export { type ScopeGlob, type ScopeGlobProblem, reportScopeGlobs } from './scope-report.js';
export { type RuleLog, createRuleLog } from './rule-log.js';
