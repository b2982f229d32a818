// Public surface of the planner area (so far: reading follow-up arguments out of results).
export {
  parseProjection,
  evaluateProjection,
  projectFollowUp,
  resultData,
  MAX_ARGUMENT_SETS_PER_LINK,
} from './projection.js';
