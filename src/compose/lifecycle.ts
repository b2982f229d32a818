// The host's start (mount, start the plugins, check the models and rules once they settle, attach learning) and its
// close (transports first, then what the servers share, the planner, the plugins in reverse order, the audit log).
import type { AuditLog } from '../audit/index.js';
import type { PlannerConfig, PluginEntry } from '../config/index.js';
import type { Logger, Plugin } from '../contract/index.js';
import type { MountSpec } from '../host/index.js';
import { type Planner, type PlannerLearning, attachLearning } from '../planner/index.js';
import type { SharedServices } from './host-types.js';
import { mountAll } from './mounts.js';
import type { ServerState } from './server-state.js';
import type { ToolChain } from './tool-chain.js';

export interface LifecycleParts {
  chain: ToolChain;
  planner: Planner;
  plannerSettings: PlannerConfig;
  state: ServerState;
  audit: AuditLog | undefined;
  logger: Logger;
  /** The config's [plugins.*] entries, then the further plugins given. */
  entries: readonly PluginEntry[];
  extras: readonly (Plugin | MountSpec)[];
  /** Logs each tool rule that matches nothing once the plugins have settled. */
  logRuleProblems: boolean;
  sharedLearning: SharedServices['learning'];
  /** Each transport's close, run first at `close()`. */
  closers: Set<() => Promise<void>>;
}

export interface Lifecycle {
  /** Builds and starts every plugin; idempotent. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createLifecycle(parts: LifecycleParts): Lifecycle {
  const { chain, planner, plannerSettings, state, audit, logger, closers } = parts;
  const { plugins, tools, ruleLog, validator } = chain;
  let learning: PlannerLearning | undefined;
  let starting: Promise<void> | undefined;
  const start = () => {
    starting ??= (async () => {
      audit?.open();
      await mountAll(plugins, parts.entries, parts.extras);
      await plugins.start();
      // Once plugins that connect in the background (upstream servers) have listed their tools, or the
      // blocks naming those tools would be reported as naming nothing.
      if (plannerSettings.enabled || parts.logRuleProblems)
        void plugins.settle().then(() => {
          if (plugins.status !== 'started') return;
          if (plannerSettings.enabled) {
            for (const problem of planner.modelProblems()) logger.warn({}, `planner: ${problem}`);
            for (const note of planner.modelNotes()) logger.info({}, `planner: ${note}`);
          }
          if (parts.logRuleProblems) ruleLog.start(tools);
        });
      if (plannerSettings.enabled && plannerSettings.learning)
        learning = await attachLearning(planner, {
          file: plannerSettings.stateFile,
          logger,
          ...(parts.sharedLearning ? { shared: parts.sharedLearning } : {}),
        });
      // Off the start-up path, before the first call is likely to arrive.
      setImmediate(() => validator.warmUp()).unref();
    })();
    return starting;
  };
  const close = async () => {
    const closing = [...closers];
    closers.clear();
    await Promise.allSettled(closing.map((closeOne) => closeOne()));
    state.unpublish();
    ruleLog.stop();
    state.listen.closeAll();
    state.rounds.close();
    state.taskStore.close();
    state.streams.closeAll();
    planner.close();
    await learning?.close();
    await plugins.shutdown();
    audit?.close();
  };
  return { start, close };
}
