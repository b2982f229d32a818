// Public surface of the planner area (so far its pure parts: projection, value models, ranking follow-ups).
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
  sideEffectFromAnnotations,
  mayRunAhead,
  DEFAULT_TYPICAL_KB,
  type ValueModelParts,
} from './value-models.js';
export { ResultCache, DEFAULT_CACHE_MAX_BYTES } from './cache.js';
export type { CacheKeyParts, CachedResult, ResultCacheOptions, ResultCacheStats, InFlight } from './cache.js';
