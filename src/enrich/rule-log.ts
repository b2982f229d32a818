// Tells the log what the tool rules' report finds, once plugins have settled and again as the tools change.
import type { Logger } from '../contract/index.js';
import type { ToolPipeline } from './pipeline.js';
import type { RuleReport } from './rule-reach.js';

export interface RuleLog {
  /** Logs the report now and whenever the pipeline's tools change; idempotent. */
  start(tools: ToolPipeline): void;
  stop(): void;
}

/**
 * Logs what the rule report finds, each finding once: problems as errors, checks left out (a plugin not ready) as
 * warnings; and looks again whenever the tools change, as a plugin that was down may have come up.
 */
export function createRuleLog(check: () => RuleReport, logger: Logger): RuleLog {
  const told = new Set<string>();
  let unsubscribe: (() => void) | undefined;
  const look = () => {
    const { problems, unchecked } = check();
    for (const problem of problems.filter((p) => !told.has(p))) {
      told.add(problem);
      logger.error({}, `tool rule matches nothing: ${problem}`);
    }
    for (const note of unchecked.filter((n) => !told.has(n))) {
      told.add(note);
      logger.warn({}, `tool rule ${note}`);
    }
  };
  return {
    start(tools: ToolPipeline) {
      if (unsubscribe) return;
      unsubscribe = tools.onToolsChanged(look);
      look();
    },
    stop() {
      unsubscribe?.();
    },
  };
}
