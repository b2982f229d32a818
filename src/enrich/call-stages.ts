// The two halves of a call around the plugin: arguments checked, mapped back through the chain and checked again;
// the result out through it.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { describeThrown, errors, type ForesightError, isForesightError } from '../contract/index.js';
import type { ChainLink } from './chain.js';
import type { EnrichedTool } from './enrich-tool.js';
import type { ArgumentIssue, ArgumentValidator } from './validate.js';

/** A call ready for the plugin; the planner may cache by `published` and `args`. */
export interface PreparedCall {
  enriched: EnrichedTool;
  /** What the plugin receives: the agent's arguments mapped back through the chain, fitting the plugin's schema. */
  args: Record<string, unknown>;
  /** For each link with a result hook, the arguments as that link received them. */
  seen: ReadonlyMap<number, Readonly<Record<string, unknown>>>;
}

const NOTHING_SEEN: ReadonlyMap<number, Readonly<Record<string, unknown>>> = new Map();

/** Undoes the renames a link made, so the link sees the names it knows. */
function mapRenamesBack(enriched: EnrichedTool, layer: number, args: Record<string, unknown>): void {
  // Most chains rename nothing: no list to filter for every link of every call.
  if (enriched.schema.renames.length === 0) return;
  const renames = enriched.schema.renames.filter((rename) => rename.layer === layer).reverse();
  for (const { from, to } of renames) {
    if (Object.hasOwn(args, from)) {
      throw errors.invalidArguments(
        `tool "${enriched.ref.published}"`,
        `unknown parameter "${from}"; it is called "${enriched.schema.agentName(from)}" here`,
      );
    }
    if (!Object.hasOwn(args, to)) continue;
    args[from] = args[to];
    delete args[to];
  }
}

/**
 * Checks the agent's arguments against the schema the agent was shown (a failure is the agent's, in its parameter
 * names), runs the chain in reverse (the enricher nearest the agent first), then checks the result against the
 * plugin's declared schema (a failure is an enricher's, named). Nothing reaches the plugin unless both pass.
 */
export function prepareCall(
  enriched: EnrichedTool,
  agentArgs: Record<string, unknown>,
  validator: ArgumentValidator,
): PreparedCall {
  const { ref, links } = enriched;
  try {
    validator.check(ref.published, enriched.tool.inputSchema, agentArgs);
  } catch (error) {
    throw refusalOf(enriched, agentArgs) ?? error;
  }
  // A shallow copy: the chain renames, adds and deletes top-level parameters. The request object is this
  // call's own, so an enricher that edits a nested value in place touches nothing shared.
  const args = { ...agentArgs };
  // Without links the plugin gets the agent's arguments and the agent saw the plugin's own schema object: the
  // second check would repeat the first.
  if (links.length === 0) return { enriched, args, seen: NOTHING_SEEN };
  const seen = new Map<number, Readonly<Record<string, unknown>>>();
  for (let layer = links.length - 1; layer >= 0; layer--) {
    const link = links[layer];
    if (!link) continue;
    mapRenamesBack(enriched, layer, args);
    if (link.enricher.transformResult) seen.set(layer, { ...args });
    try {
      link.enricher.transformArgs(ref, args);
    } catch (error) {
      // An enricher that refuses arguments says why in its own words; anything else is its failure.
      if (isForesightError(error)) throw error;
      throw errors.enricherFailed(link.label, ref.published, 'mapping its arguments', describeThrown(error));
    }
  }
  const issues = validator.issues(ref.published, enriched.declared, args);
  // Only a refused call pays for finding whom to blame: the chain runs again, keeping what each link received.
  if (issues.length) throw blame(enriched, issues, replayChain(enriched, agentArgs), args);
  return { enriched, args, seen };
}

/**
 * The chain run again on a copy of the agent's arguments, keeping a copy of what each link received (by layer);
 * a link's refusal is thrown as it is.
 */
function replayChain(enriched: EnrichedTool, agentArgs: Record<string, unknown>): Record<string, unknown>[] {
  const args = { ...agentArgs };
  const received: Record<string, unknown>[] = [];
  for (let layer = enriched.links.length - 1; layer >= 0; layer--) {
    mapRenamesBack(enriched, layer, args);
    received[layer] = { ...args };
    enriched.links[layer]?.enricher.transformArgs(enriched.ref, args);
  }
  return received;
}

/**
 * For arguments the agent's schema refused: when the agent sent a parameter that schema does not have, a link may
 * know it by another name (a rename's old name) or as one it keeps from the agent (a pin, a hidden parameter), and
 * say so better than "unknown parameter". The chain runs on a copy; only a refusal in a link's own words counts.
 */
function refusalOf(enriched: EnrichedTool, agentArgs: Record<string, unknown>): ForesightError | undefined {
  const shown = enriched.tool.inputSchema.properties ?? {};
  if (Object.keys(agentArgs).every((name) => Object.hasOwn(shown, name))) return undefined;
  try {
    replayChain(enriched, agentArgs);
  } catch (error) {
    if (isForesightError(error)) return error;
  }
  return undefined;
}

/**
 * The error for arguments the chain made that the plugin's schema refuses. Each issue goes to the link nearest the
 * plugin whose transformArgs changed that parameter; when none did, to the last link whose schema edits changed what
 * the parameter accepts (it let the agent send what the plugin refuses); failing both, to the link nearest the
 * plugin. The error names the first issue's link, with every issue of that link.
 */
function blame(
  enriched: EnrichedTool,
  issues: readonly ArgumentIssue[],
  received: readonly Record<string, unknown>[],
  final: Record<string, unknown>,
): ForesightError {
  const culprit = (issue: ArgumentIssue): ChainLink | undefined => {
    const { param } = issue;
    if (param === undefined) return enriched.links[0];
    const changer = changedBy(enriched, param, received, final);
    return enriched.links[changer ?? enriched.schema.editedBy(param) ?? 0];
  };
  const byLink = issues.map((issue) => ({ issue, link: culprit(issue) }));
  const link = byLink[0]?.link;
  const lines = byLink.filter((entry) => entry.link === link).map((entry) => entry.issue.text);
  return errors.enricherFailed(
    link?.label ?? 'chain',
    enriched.ref.published,
    'mapping its arguments',
    `the plugin's schema refuses what it passed on: ${lines.join('; ')}`,
  );
}

/**
 * The layer nearest the plugin whose transformArgs changed the value that reaches the plugin as `param`. A value
 * keeps its identity through renames, which only move it: its name is followed from the plugin's side outwards.
 */
function changedBy(
  enriched: EnrichedTool,
  param: string,
  received: readonly Record<string, unknown>[],
  final: Record<string, unknown>,
): number | undefined {
  const present = Object.hasOwn(final, param);
  const value = final[param];
  let name = param;
  for (let layer = 0; layer < enriched.links.length; layer++) {
    const input = received[layer];
    if (!input) continue;
    if (Object.hasOwn(input, name) !== present || !Object.is(input[name], value)) return layer;
    // The link outside this one handed the value on under the name that this layer's renames map back from.
    for (const { layer: at, from, to } of enriched.schema.renames)
      if (at === layer && from === name) name = to;
  }
  return undefined;
}

/** Runs each link's result hook in registration order (the plugin's side first). */
export function finishCall(prepared: PreparedCall, result: CallToolResult): CallToolResult {
  const { ref, links } = prepared.enriched;
  let current = result;
  for (const [layer, link] of links.entries()) {
    const transform = link.enricher.transformResult?.bind(link.enricher);
    if (!transform) continue;
    let next: unknown;
    try {
      next = transform(ref, current, prepared.seen.get(layer) ?? {});
    } catch (error) {
      throw errors.enricherFailed(link.label, ref.published, 'shaping its result', describeThrown(error));
    }
    if (!Array.isArray((next as CallToolResult | undefined)?.content)) {
      throw errors.enricherFailed(
        link.label,
        ref.published,
        'shaping its result',
        'expected { content: [...] }',
      );
    }
    current = next as CallToolResult;
  }
  return current;
}
