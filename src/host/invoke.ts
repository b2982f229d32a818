// The one guarded boundary through which the host calls plugin code: deadline, cancellation, shutdown, isolation.
import type { RequestContext } from './contract.js';
import { describeThrown, errors, isForesightError } from './errors.js';
import { runInPluginScope } from './isolation.js';
import type { Mount, PluginMethod } from './mount.js';
import { type CallEnvironment, createRequestContext } from './request-context.js';

export interface InvokeOptions {
  mount: Pick<Mount, 'name' | 'deadlines'>;
  method: PluginMethod;
  /** Public name of what is called, for messages: `tool "gh__get_issue"`. */
  target: string;
  /** Fires when the host shuts down. */
  shutdown: AbortSignal;
  env?: CallEnvironment;
}

/**
 * Runs `fn` under the plugin's deadline for `method`. The signal handed to the plugin aborts on the deadline,
 * on client cancellation and on shutdown, with a ForesightError as its reason; the call then rejects with
 * that error at once and a late result is dropped.
 */
export function invokePlugin<T>(
  options: InvokeOptions,
  fn: (ctx: RequestContext) => T | Promise<T>,
): Promise<T> {
  const { mount, method, target, shutdown } = options;
  const env = options.env ?? {};
  const deadlineMs = mount.deadlines[method];
  const controller = new AbortController();
  const ctx = createRequestContext(env, controller.signal);

  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const abortWith = (reason: Error) => {
      if (!controller.signal.aborted) controller.abort(reason);
    };
    const onCancel = () => abortWith(errors.cancelled(target));
    const onShutdown = () => abortWith(errors.shuttingDown(target));
    const timer = setTimeout(() => abortWith(errors.deadline(target, deadlineMs)), deadlineMs);

    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      env.signal?.removeEventListener('abort', onCancel);
      shutdown.removeEventListener('abort', onShutdown);
      outcome();
    };

    controller.signal.addEventListener(
      'abort',
      () => settle(() => reject(controller.signal.reason as Error)),
      {
        once: true,
      },
    );
    if (env.signal?.aborted) onCancel();
    if (shutdown.aborted && method !== 'shutdown') onShutdown();
    if (settled) return;
    env.signal?.addEventListener('abort', onCancel, { once: true });
    if (method !== 'shutdown') shutdown.addEventListener('abort', onShutdown, { once: true });

    const scope = {
      plugin: mount.name,
      target,
      fail: (error: unknown) => settle(() => reject(errors.pluginCrashed(target, describeThrown(error)))),
    };
    // Promise.resolve().then turns a synchronous throw into a rejection inside the plugin's scope.
    runInPluginScope(scope, () => Promise.resolve().then(() => fn(ctx))).then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(asCallError(error, target))),
    );
  }).finally(() => {
    // Tell the plugin its work is no longer wanted, whatever ended the call.
    if (!controller.signal.aborted) controller.abort(errors.cancelled(target));
  });
}

/** A plugin's own ForesightError keeps its kind; anything else becomes a plugin failure with its message. */
export function asCallError(error: unknown, target: string): Error {
  if (isForesightError(error)) return error;
  const failure = errors.pluginFailed(target, describeThrown(error));
  failure.cause = error;
  return failure;
}

/** The plugin's own words when the host wrapped them, for messages that already name the plugin. */
export function innerMessage(error: unknown): string {
  const inner = isForesightError(error) && error.code === errors.pluginFailed.code ? error.cause : error;
  return describeThrown(inner ?? error);
}
