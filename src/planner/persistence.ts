// Gives the planner its learners (one per principal): the counts saved by earlier runs loaded at start, saved again as
// it runs and at close.
import type { Logger } from '../contract/index.js';
import { LearnerPool } from './learner-pool.js';
import { LearningSync } from './learning-sync.js';
import type { TransitionLearner } from './learning.js';
import type { Planner } from './planner.js';
import type { SharedLearning } from './shared-learning.js';
import { PlannerStateStore } from './state-file.js';

/** How often the learned counts are written while the server runs. */
export const SAVE_EVERY_MS = 60_000;

export interface PlannerLearning {
  /** The state file in use. */
  readonly file: string;
  /** Adds what this process counted since its last save to the state file; never rejects. */
  save(): Promise<void>;
  /** Stops the periodic save and saves one last time. */
  close(): Promise<void>;
}

export interface AttachLearningOptions {
  /** Default: the user's data dir (see `plannerStateFile`). */
  file?: string;
  logger: Logger;
  saveEveryMs?: number;
  /** Principals learned for, in memory and in the file. Default DEFAULT_MAX_PRINCIPALS (1,000). */
  maxPrincipals?: number;
  /** What the other processes of a cluster learn, shared both ways. Default none: this process learns alone. */
  shared?: SharedLearning;
}

/** Loads the saved counts, gives the planner a learner built from them, and keeps saving. */
export async function attachLearning(
  planner: Planner,
  options: AttachLearningOptions,
): Promise<PlannerLearning> {
  const { logger } = options;
  const store = new PlannerStateStore({
    file: options.file,
    onWarning: (message) => logger.warn({}, message),
    maxPrincipals: options.maxPrincipals,
  });
  const saved = await store.load();
  let sync: LearningSync | undefined;
  const learners = new LearnerPool(
    {
      maxPrincipals: options.maxPrincipals,
      // Only in a cluster: a single process pays nothing per call for sharing it does not do.
      ...(options.shared === undefined
        ? {}
        : {
            onBuild: (principal: string, learner: TransitionLearner) => sync?.track(principal, learner),
            onCall: (principal: string, stream: string, tool: string, argsKey: string) =>
              sync?.relay(principal, stream, tool, argsKey),
          }),
      // A principal is a subject or a fingerprint, never a token: it may be logged.
      onSwitch: (change) =>
        logger.info(
          {
            principal: change.principal,
            tool: change.tool,
            useRate: change.useRate,
            samples: change.samples,
          },
          change.off
            ? 'planner: results run ahead for this tool keep going unused; running it ahead is off'
            : 'planner: the agent uses this tool’s follow-ups again; running it ahead is back on',
        ),
    },
    saved,
  );
  if (options.shared !== undefined) {
    sync = new LearningSync({ pool: learners, shared: options.shared, logger });
    sync.start();
  }
  planner.useLearners(learners, saved?.counters);
  logger.debug({ file: store.file, loaded: saved !== undefined }, 'planner: learning');
  const save = () => store.save({ counters: planner.snapshot().counters, learned: learners.toState() });
  const timer = setInterval(() => void save(), options.saveEveryMs ?? SAVE_EVERY_MS);
  timer.unref();
  let closing: Promise<void> | undefined;
  return {
    file: store.file,
    save,
    close: () => {
      closing ??= (async () => {
        clearInterval(timer);
        // Shared first: what the others count meanwhile is not this process's to save.
        await sync?.close();
        await save();
      })();
      return closing;
    },
  };
}
