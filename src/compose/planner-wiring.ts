// The planner as the host runs it: over the tool chain, told to the call observer, shared across a cluster, and
// read through its stats resource.
import { prefetchRecord } from '../audit/index.js';
import type { ForesightConfig, PlannerConfig } from '../config/index.js';
import type { Logger } from '../contract/index.js';
import { PLANNER_STATS_URI, Planner } from '../planner/index.js';
import type { BuiltinResource } from '../protocol/index.js';
import type { SharedServices } from './host-types.js';
import type { ObservedCalls } from './observed-calls.js';
import type { ToolChain } from './tool-chain.js';

export interface HostPlannerOptions {
  chain: ToolChain;
  settings: PlannerConfig;
  /** The config's `[tools."<name>"]` tables. */
  overrides: ForesightConfig['tools'] | undefined;
  logger: Logger;
  /** Hears of each call run ahead once it has ended. */
  observer: ObservedCalls | undefined;
  shared: SharedServices | undefined;
}

export function createHostPlanner(options: HostPlannerOptions): Planner {
  const { chain, observer, shared } = options;
  const planner = new Planner({
    pipeline: chain.tools,
    host: chain.plugins,
    settings: options.settings,
    overrides: options.overrides,
    logger: options.logger,
    ...(observer ? { onSpeculativeCall: (call) => observer.write(prefetchRecord(call)) } : {}),
    ...(shared?.speculation ? { shared: shared.speculation } : {}),
    ...(shared?.budgets?.slots ? { slots: shared.budgets.slots } : {}),
  });
  // A stream's next call may land on another process: a walk through a listing held here goes on from there.
  shared?.learning?.onRelayedCall?.((call) => planner.continueListing(call.stream, call.tool, call.argsKey));
  return planner;
}

/** `foresight://planner/stats`: what the planner ran ahead and saved, as each reader may see it. */
export function plannerStatsResource(planner: Planner): BuiltinResource {
  return {
    resource: {
      uri: PLANNER_STATS_URI,
      name: 'planner-stats',
      title: 'Planner statistics',
      description:
        'What the planner ran ahead of the agent and what it saved: calls dispatched, hits, joins, wasted, latency saved.',
      mimeType: 'application/json',
    },
    // Each reader sees what the planner learned for them alone: who else uses the server is not theirs to know.
    read: (principal) => ({
      contents: [
        {
          uri: PLANNER_STATS_URI,
          mimeType: 'application/json',
          text: JSON.stringify(planner.snapshot(principal), null, 2),
        },
      ],
    }),
  };
}
