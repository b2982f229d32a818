// Routes each call the host serves (tools, resources, subscriptions, prompts, completions) to its plugin through
// the guarded boundary, and checks and republishes what the plugin answers.
import {
  CallToolResultSchema,
  GetPromptResultSchema,
  ReadResourceResultSchema,
} from '@modelcontextprotocol/core';
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  ReadResourceResult,
} from '@modelcontextprotocol/server';
import { type CompletionRequest, errors } from '../contract/index.js';
import { capCompletion } from './completion.js';
import type { HostState } from './host-types.js';
import { invokePlugin } from './invoke.js';
import type { Mount, PluginMethod } from './mount.js';
import type { CallEnvironment, ToolCallOptions } from './request-context.js';
import { type RouteTable, routeUri } from './routes.js';
import {
  createUriRewriter,
  hasResourceBlocks,
  rewritePromptResult,
  rewriteReadResult,
  rewriteToolResult,
} from './uri-ownership.js';

/** What the calls read of the host, each time: its route table and state change while it serves. */
export interface CallRouting {
  routes(): RouteTable;
  state(): HostState;
  /** Fires when shutdown begins. */
  readonly shutdownSignal: AbortSignal;
}

// callTool runs the plugin as asked: arguments are checked by the enrichment pipeline in front of it.
export class PluginCalls {
  /** Sessions subscribed to each published URI. */
  private readonly subscribers = new Map<string, number>();

  constructor(private readonly host: CallRouting) {}

  private invoke<T>(
    mount: Mount,
    method: PluginMethod,
    target: string,
    fn: Parameters<typeof invokePlugin<T>>[1],
    env?: CallEnvironment,
    readOnly?: boolean,
  ): Promise<T> {
    return invokePlugin({ mount, method, target, shutdown: this.host.shutdownSignal, env, readOnly }, fn);
  }

  private assertServing(target: string): void {
    const state = this.host.state();
    if (state === 'stopping' || state === 'stopped') throw errors.shuttingDown(target);
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    env?: CallEnvironment,
    options?: ToolCallOptions,
  ): Promise<CallToolResult> {
    const target = `tool "${name}"`;
    this.assertServing(target);
    const route = this.host.routes().tools.get(name);
    if (!route) throw errors.toolNotFound(name);
    const { mount, local } = route;
    const result = await this.invoke(
      mount,
      'callTool',
      target,
      (ctx) => mount.provider.callTool(local, args, ctx),
      env,
      options?.readOnly,
    );
    // The SDK validates results in depth; this cheap shape check keeps the common case off the full parse
    // and turns a malformed result into an error that names the tool.
    if (!looksLikeToolResult(result)) {
      const parsed = CallToolResultSchema.safeParse(result);
      throw errors.badResult(
        target,
        parsed.success ? 'expected { content: [...] }' : firstIssue(parsed.error),
      );
    }
    return hasResourceBlocks(result)
      ? rewriteToolResult(result, createUriRewriter(mount, this.host.routes()))
      : result;
  }

  async readResource(uri: string, env?: CallEnvironment): Promise<ReadResourceResult> {
    const target = `resource ${uri}`;
    this.assertServing(target);
    const route = routeUri(this.host.routes(), uri);
    const read = route?.mount.provider.readResource?.bind(route.mount.provider);
    if (!route || !read) throw errors.resourceNotFound(uri);
    const result = await this.invoke(
      route.mount,
      'readResource',
      target,
      (ctx) => read(route.local, ctx),
      env,
    );
    const parsed = ReadResourceResultSchema.safeParse(result);
    if (!parsed.success) throw errors.badResult(target, firstIssue(parsed.error));
    return rewriteReadResult(result, createUriRewriter(route.mount, this.host.routes()));
  }

  /**
   * A session subscribed to a published URI: the plugin owning it is told when the first session subscribes
   * (under the readResource deadline). A URI no plugin owns is accepted, as it may appear later.
   */
  async subscribe(uri: string, env?: CallEnvironment): Promise<void> {
    const count = this.subscribers.get(uri) ?? 0;
    this.subscribers.set(uri, count + 1);
    if (count > 0) return;
    try {
      this.assertServing(`subscription to ${uri}`);
      await this.tellOwner(uri, 'subscribe', env);
    } catch (error) {
      this.release(uri);
      throw error;
    }
  }

  /** A session unsubscribed from `uri` (or ended); the owning plugin is told when it was the last one. */
  async unsubscribe(uri: string, env?: CallEnvironment): Promise<void> {
    if (this.release(uri) > 0 || this.host.state() !== 'started') return;
    await this.tellOwner(uri, 'unsubscribe', env);
  }

  /** Calls the owning plugin's `subscribe` or `unsubscribe` for `uri`, if it has one. */
  private async tellOwner(uri: string, member: 'subscribe' | 'unsubscribe', env?: CallEnvironment) {
    const route = routeUri(this.host.routes(), uri);
    const tell = route?.mount.provider[member]?.bind(route.mount.provider);
    if (!route || !tell) return;
    const target = `${member === 'subscribe' ? 'subscription to' : 'unsubscription from'} ${uri}`;
    await this.invoke(route.mount, 'readResource', target, (ctx) => tell(route.local, ctx), env);
  }

  /** One subscriber fewer; returns how many remain. */
  private release(uri: string): number {
    const left = (this.subscribers.get(uri) ?? 1) - 1;
    if (left > 0) this.subscribers.set(uri, left);
    else this.subscribers.delete(uri);
    return left;
  }

  async getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    env?: CallEnvironment,
  ): Promise<GetPromptResult> {
    const target = `prompt "${name}"`;
    this.assertServing(target);
    const route = this.host.routes().prompts.get(name);
    const get = route?.mount.provider.getPrompt?.bind(route.mount.provider);
    if (!route || !get) throw errors.promptNotFound(name);
    const result = await this.invoke(
      route.mount,
      'getPrompt',
      target,
      (ctx) => get(route.local, args, ctx),
      env,
    );
    const parsed = GetPromptResultSchema.safeParse(result);
    if (!parsed.success) throw errors.badResult(target, firstIssue(parsed.error));
    return rewritePromptResult(result, createUriRewriter(route.mount, this.host.routes()));
  }

  /** Routes `ref/prompt` by prompt name and `ref/resource` by scheme, in local names; caps values at 100. */
  async complete(request: CompletionRequest, env?: CallEnvironment): Promise<CompleteResult> {
    const ref = request.ref;
    const target =
      ref.type === 'ref/prompt' ? `completion of prompt "${ref.name}"` : `completion of ${ref.uri}`;
    this.assertServing(target);
    let mount: Mount;
    let localRef: CompletionRequest['ref'];
    if (ref.type === 'ref/prompt') {
      const route = this.host.routes().prompts.get(ref.name);
      if (!route) throw errors.promptNotFound(ref.name);
      mount = route.mount;
      localRef = { ...ref, name: route.local };
    } else {
      const route = routeUri(this.host.routes(), ref.uri);
      if (!route) throw errors.resourceNotFound(ref.uri);
      mount = route.mount;
      localRef = { ...ref, uri: route.local };
    }
    const complete = mount.provider.complete?.bind(mount.provider);
    if (!complete) return { completion: { values: [], hasMore: false, total: 0 } };
    const local: CompletionRequest = { ...request, ref: localRef };
    const completion = await this.invoke(mount, 'complete', target, (ctx) => complete(local, ctx), env);
    if (!completion || !Array.isArray(completion.values))
      throw errors.badResult(target, 'expected { values: string[] }');
    return { completion: capCompletion(completion) };
  }
}

function looksLikeToolResult(value: unknown): value is CallToolResult {
  if (typeof value !== 'object' || value === null) return false;
  const content = (value as { content?: unknown }).content;
  if (!Array.isArray(content)) return false;
  return content.every((block) => typeof (block as { type?: unknown } | null)?.type === 'string');
}

function firstIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'it does not match the MCP schema';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
