// Public surface of the planner area: the run-time planner, and its pure parts (projection, value models, ranking, cache).
export {
  parseProjection,
  evaluateProjection,
  projectFollowUp,
  resultData,
  MAX_ARGUMENT_SETS_PER_LINK,
} from './projection.js';
export { planFollowUps, canonicalJson, VALUE_WEIGHTS, TOKENS_PER_KB } from './plan.js';
export type { PlanInput, Candidate } from './plan.js';
export {
  resolveValueModel,
  replacedLinksNote,
  sideEffectFromAnnotations,
  mayRunAhead,
  isReadOnly,
  DEFAULT_TYPICAL_KB,
  type ValueModelParts,
} from './value-models.js';
export { ResultCache, DEFAULT_CACHE_MAX_BYTES } from './cache.js';
export { WasteBudget, WASTE_BUDGET_MEMORY } from './waste-budget.js';
export type { BudgetOutcome, BudgetTicket, WasteBudgetChange, WasteBudgetState } from './waste-budget.js';
export type {
  CacheKeyParts,
  CachedResult,
  ResultCacheOptions,
  ResultCacheStats,
  InFlight,
  OutcomeListener,
} from './cache.js';
export { Planner, PREFETCH_META_KEY, DEFAULT_PRINCIPAL } from './planner.js';
export type {
  AgentStream,
  PlannerOptions,
  PlannedTools,
  PlannerSnapshot,
  SpeculativeCallReport,
  ToolCaller,
} from './planner.js';
export {
  Dispatcher,
  DEFAULT_FULL_RETRY_MS,
  type DispatchJob,
  type DispatchHandle,
  type DispatcherOptions,
} from './dispatcher.js';
export type { SharedClaim, SharedEntry, SharedLookup, SharedSpeculation } from './shared-speculation.js';
export type { LearningExchange, PrincipalDelta, RelayedCall, SharedLearning } from './shared-learning.js';
export {
  LearningSync,
  countsMinus,
  MAX_RETIRED_LEARNERS,
  type LearningSyncOptions,
} from './learning-sync.js';
export type { SharedSlots, SlotToken } from './shared-slots.js';
export { type PlannerCounters, COUNTER_NAMES, zeroCounters } from './counters.js';
export {
  attachLearning,
  SAVE_EVERY_MS,
  type PlannerLearning,
  type AttachLearningOptions,
} from './persistence.js';
export {
  TransitionLearner,
  rankEdgesByDivergence,
  positionPrior,
  DEFAULT_PRIOR_STRENGTH,
  DEFAULT_LAG_WINDOW,
  DEFAULT_AUTO_OFF,
} from './learning.js';
export type {
  LearnerOptions,
  LearnedEdge,
  RankedEdge,
  PlannedLink,
  PlannedSet,
  SetOutcomeStatus,
  CallObservation,
  AutoOffOptions,
  AutoOffSwitch,
} from './learning.js';
export { PlannerStateStore } from './state-file.js';
export type { OwnPlannerState, PlannerStateStoreOptions } from './state-file.js';
export {
  emptyLearnedState,
  parseLearnedState,
  addCounters,
  subtractCounters,
  mergeLearnedState,
  mergeLearnedCounts,
  DEFAULT_MAX_PRINCIPALS,
  LOCAL_PRINCIPAL_STATE,
  PRINCIPAL_COUNTER_NAMES,
  zeroPrincipalCounters,
  edgeKey,
  emptyEdge,
} from './learned-state.js';
export type {
  LearnedState,
  LearnedCounts,
  PrincipalLearnedState,
  PrincipalCounters,
  LearnedEdgeState,
  LearnedToolState,
} from './learned-state.js';
export { LearnerPool, combineCounts } from './learner-pool.js';
export type { LearnerPoolOptions, PrincipalSwitchedOff } from './learner-pool.js';
export { plannerStateFile, foresightDataDir, PLANNER_STATE_FILE_NAME } from './data-dir.js';

/** The running server's planner counters, as a resource every client can read. */
export const PLANNER_STATS_URI = 'foresight://planner/stats';
