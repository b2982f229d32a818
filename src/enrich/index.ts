// Public surface of the enrich area: the enricher contract, the shared result shapes, and the argument validator.
export type {
  ToolCategory,
  ToolRef,
  ToolSchema,
  ToolEnricher,
  FollowUpLink,
  ToolValueModel,
} from './contract.js';
export { TOOL_CATEGORIES, ENRICHED_ENUM_MARKER } from './contract.js';
export type {
  IssueShape,
  IssueLinkShape,
  CommentShape,
  MergeRequestShape,
  DiffFileShape,
  JobShape,
  PipelineShape,
  StatusShape,
  FieldShape,
  UserShape,
  SprintShape,
  PageInfo,
  ShapedResult,
  ShapedResultKind,
} from './shapes.js';
export { SHAPED_RESULT_KINDS } from './shapes.js';
export { createArgumentValidator, type ArgumentValidator } from './validate.js';
export { EditableToolSchema } from './tool-schema.js';
export { fieldName, fieldNames } from './field-name.js';
export { ToolPipeline, type ToolPipelineOptions } from './pipeline.js';
export type { PreparedCall } from './call-stages.js';
export type { EnrichedTool } from './enrich-tool.js';
export type { ChainLink } from './chain.js';
export { createDeclarativeEnrichers } from './declarative.js';
export { type ConfigRules, type ConfigRulesOptions, createConfigRules } from './config-rules.js';
export type { RuleReport } from './rule-report.js';
export { unseenPlugins } from './rule-reach.js';
export { type ScopeGlob, type ScopeGlobProblem, reportScopeGlobs } from './scope-report.js';
export { type RuleLog, createRuleLog } from './rule-log.js';
