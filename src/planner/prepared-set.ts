// One projected argument set of a follow-up, mapped and validated for its tool, with its canonical key.
import { describeThrown, type Logger } from '../contract/index.js';
import type { PreparedCall, ToolPipeline } from '../enrich/index.js';
import { canonicalJson } from './plan.js';

/** One projected argument set, mapped and validated for its tool. */
export interface PreparedSet {
  prepared: PreparedCall;
  /** Canonical JSON of the arguments the plugin receives: cache key and learning key. */
  argsKey: string;
}

/** The set as its tool's plugin would receive it; undefined (logged) when the arguments do not fit the tool. */
export function prepareSet(
  pipeline: ToolPipeline,
  logger: Logger,
  tool: string,
  args: Record<string, unknown>,
): PreparedSet | undefined {
  try {
    const prepared = pipeline.prepare(tool, args);
    return { prepared, argsKey: canonicalJson(prepared.args) };
  } catch (error) {
    logger.debug(
      { tool, args, err: describeThrown(error) },
      'planner: a projected follow-up does not fit its tool; skipped',
    );
    return undefined;
  }
}
