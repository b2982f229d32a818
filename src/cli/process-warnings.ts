// Node's own process warnings taken over by a command's log, so its stderr keeps one format.
import type { Logger } from '../contract/index.js';

/** Node's own warnings as records of the command's log, so stderr keeps one format (JSON for serve). */
export function logProcessWarnings(logger: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) =>
    logger.warn({ warning: warning.name, detail: warning.message }, 'node warning'),
  );
}
