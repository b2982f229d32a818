// Attributes errors that escape a plugin's handlers (unhandled rejections, uncaught exceptions) to that plugin.
import { AsyncLocalStorage } from 'node:async_hooks';
import { describeThrown, type Logger } from '../contract/index.js';

/** The plugin work an async context belongs to; timers and promises created inside inherit it. */
export interface PluginScope {
  plugin: string;
  target: string;
  /** Fails the call this context belongs to; a no-op once that call has settled. */
  fail(error: unknown): void;
}

const scopes = new AsyncLocalStorage<PluginScope>();

export function runInPluginScope<T>(scope: PluginScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

let installed: { logger: Logger; refs: number } | undefined;

function onEscaped(kind: 'unhandled rejection' | 'uncaught exception', error: unknown): void {
  const scope = scopes.getStore();
  const logger = installed?.logger;
  if (scope) {
    logger?.error(
      { plugin: scope.plugin, target: scope.target, err: describeThrown(error) },
      `${kind} in plugin`,
    );
    scope.fail(error);
    return;
  }
  // Outside any plugin: a host bug. Serving on is better for the agent than dying mid-session.
  logger?.error({ err: error instanceof Error ? error : describeThrown(error) }, `${kind} outside plugins`);
}

const onRejection = (reason: unknown) => onEscaped('unhandled rejection', reason);
const onException = (error: unknown) => onEscaped('uncaught exception', error);

/** Installs the process-wide handlers once per process; returns the matching uninstall. */
export function installIsolationHandlers(logger: Logger): () => void {
  if (installed) {
    installed.refs += 1;
  } else {
    installed = { logger, refs: 1 };
    process.on('unhandledRejection', onRejection);
    process.on('uncaughtException', onException);
  }
  let released = false;
  return () => {
    if (released || !installed) return;
    released = true;
    installed.refs -= 1;
    if (installed.refs === 0) {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
      installed = undefined;
    }
  };
}
