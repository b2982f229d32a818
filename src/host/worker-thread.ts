// One worker thread running a plugin: relays its calls and their client requests, and ends the thread when an
// aborted call does not stop within its grace.
import { Worker } from 'node:worker_threads';
import type { CreateMessageRequest, ElicitRequest, LoggingLevel } from '@modelcontextprotocol/server';
import { errors, type PluginContext, type PluginHealth, type RequestContext } from '../contract/index.js';
import type { Mount } from './mount.js';
import {
  type HostMessage,
  type WorkerData,
  type WorkerMessage,
  type WorkerMethod,
  deserializeError,
  serializeError,
} from './worker-protocol.js';

/** How long a worker may take to finish an aborted call on its own before its thread is ended. */
export const WORKER_ABORT_GRACE_MS = 100;

const workerEntry = new URL('./worker-entry.js', import.meta.url);

interface Pending {
  ctx: RequestContext;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export interface WorkerProviderOptions {
  module: string;
  mount: Mount;
  context: PluginContext;
  host: { shutdownSignal: AbortSignal };
}

/** What a thread tells the proxy outside its calls. */
export interface ThreadEvents {
  catalog(message: Extract<WorkerMessage, { type: 'catalog' }>): void;
  health(health: PluginHealth): void;
  exit(thread: WorkerThread): void;
}

export class WorkerThread {
  readonly ready: Promise<Extract<WorkerMessage, { type: 'ready' }>>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private exited = false;
  /** Aborted calls not yet settled; while any remain, the thread may be stuck and takes no new calls. */
  private readonly aborted = new Set<number>();
  private settleDrain: (() => void) | undefined;
  /** Resolves once every aborted call has settled or the thread has ended; undefined when none is pending. */
  draining: Promise<void> | undefined;
  private rejectReady: ((error: Error) => void) | undefined;

  constructor(
    private readonly options: WorkerProviderOptions,
    private readonly events: ThreadEvents,
  ) {
    const data: WorkerData = {
      module: options.module,
      name: options.mount.name,
      config: options.context.config,
      contextMembers: [
        ...(options.context.clientRoots ? ['clientRoots' as const] : []),
        ...(options.context.onRootsChanged ? ['onRootsChanged' as const] : []),
        ...(options.context.secrets ? ['secrets' as const] : []),
      ],
    };
    this.worker = new Worker(workerEntry, { workerData: data, stderr: false });
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      this.rejectReady = reject;
      this.worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') resolve(message);
        else if (message.type === 'buildFailed') reject(deserializeError(message.error));
        else this.handle(message);
      });
      this.worker.on('error', (error) => {
        options.mount.logger.error({ err: error.message }, 'worker thread failed');
        this.end(`it failed: ${error.message}`);
        reject(errors.workerExited(options.mount.label, error.message));
      });
      this.worker.on('exit', (code) => {
        this.end(`it exited with code ${code}`);
        reject(errors.workerExited(options.mount.label, `it exited with code ${code} before it was ready`));
      });
    });
  }

  private markAborted(id: number): void {
    this.aborted.add(id);
    this.draining ??= new Promise<void>((resolve) => (this.settleDrain = resolve));
  }

  private unmarkAborted(id: number): void {
    if (!this.aborted.delete(id) || this.aborted.size > 0) return;
    this.finishDrain();
  }

  private finishDrain(): void {
    this.settleDrain?.();
    this.settleDrain = undefined;
    this.draining = undefined;
  }

  private end(why: string): void {
    if (this.exited) return;
    this.exited = true;
    // Settles `ready` too when the thread ends before its plugin was built; a no-op after.
    this.rejectReady?.(errors.workerExited(this.options.mount.label, why));
    this.aborted.clear();
    this.finishDrain();
    for (const call of this.pending.values()) call.reject(errors.workerExited(this.options.mount.label, why));
    this.pending.clear();
    this.events.exit(this);
  }

  terminate(why: string): void {
    this.end(why);
    void this.worker.terminate();
  }

  signalShutdown(): void {
    this.post({ type: 'shutdownSignal' });
  }

  rootsChanged(): void {
    this.post({ type: 'rootsChanged' });
  }

  private post(message: HostMessage): void {
    if (!this.exited) this.worker.postMessage(message);
  }

  call(method: WorkerMethod, args: unknown[], ctx: RequestContext): Promise<unknown> {
    if (this.exited) return Promise.reject(errors.workerExited(this.options.mount.label, 'it was ended'));
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      let graceTimer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        this.markAborted(id);
        this.post({ type: 'abort', id, reason: serializeError(ctx.signal.reason) });
        // A cooperative plugin settles the call soon; one stuck in synchronous code never will.
        graceTimer = setTimeout(() => {
          if (this.pending.has(id))
            this.terminate(`a call overran and did not stop within ${WORKER_ABORT_GRACE_MS} ms`);
        }, WORKER_ABORT_GRACE_MS);
        graceTimer.unref();
      };
      const done = () => {
        this.pending.delete(id);
        this.unmarkAborted(id);
        ctx.signal.removeEventListener('abort', onAbort);
        if (graceTimer) clearTimeout(graceTimer);
      };
      this.pending.set(id, {
        ctx,
        resolve: (value) => (done(), resolve(value)),
        reject: (error) => (done(), reject(error)),
      });
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      this.post({
        type: 'call',
        id,
        method,
        args,
        progressRequested: ctx.progressRequested,
        ...(ctx.logLevel === undefined ? {} : { logLevel: ctx.logLevel }),
        ...(ctx.readOnly === true ? { readOnly: true } : {}),
        ...(ctx.principal === undefined ? {} : { principal: ctx.principal }),
        ...(ctx.replayedInput === true ? { replayedInput: true } : {}),
        ...(ctx.carryInput === undefined ? {} : { carriesInput: true }),
        ...(ctx.carriedInput === undefined ? {} : { carriedInput: ctx.carriedInput }),
        timeLeftMs: ctx.timeLeftMs(),
      });
    });
  }

  private reply(requestId: number, request: Promise<unknown>): void {
    request.then(
      (value) => this.post({ type: 'reply', requestId, value }),
      (error: unknown) => this.post({ type: 'reply', requestId, error: serializeError(error) }),
    );
  }

  private handle(message: WorkerMessage): void {
    const { mount, context } = this.options;
    switch (message.type) {
      case 'result':
        this.pending.get(message.id)?.resolve(message.value);
        return;
      case 'error':
        this.pending.get(message.id)?.reject(deserializeError(message.error));
        return;
      case 'progress':
        void this.pending
          .get(message.id)
          ?.ctx.reportProgress(message.progress, message.total, message.message);
        return;
      case 'clientLog':
        void this.pending
          .get(message.id)
          ?.ctx.log(message.level as LoggingLevel, message.data, message.logger);
        return;
      case 'carryInput':
        this.pending.get(message.id)?.ctx.carryInput?.(message.state);
        return;
      case 'clientRequest': {
        const call = this.pending.get(message.id);
        if (!call) return this.reply(message.requestId, Promise.reject(errors.cancelled('the call')));
        this.reply(
          message.requestId,
          message.kind === 'createMessage'
            ? call.ctx.createMessage(message.params as CreateMessageRequest['params'], message.options)
            : message.kind === 'elicit'
              ? call.ctx.elicit(message.params as ElicitRequest['params'], message.options)
              : (call.ctx.listRoots?.(message.options) ?? Promise.reject(errors.capabilityMissing('roots'))),
        );
        return;
      }
      case 'clientRoots':
        this.reply(
          message.requestId,
          Promise.resolve().then(() => context.clientRoots?.()),
        );
        return;
      case 'health':
        this.events.health(message.health);
        return;
      case 'catalog':
        this.events.catalog(message);
        return;
      case 'resourceUpdated':
        context.notifyResourceUpdated(message.uri);
        return;
      case 'secret':
        if (message.user === undefined) context.secrets?.add(message.value);
        else context.secrets?.addBasicCredential(message.user, message.value);
        return;
      case 'log':
        mount.logger.child(message.bindings)[message.level](message.obj, message.msg);
        return;
      default:
        return;
    }
  }
}
