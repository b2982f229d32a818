// One value model per published tool: built-in defaults, then the enricher's, then the user's "*" and named blocks.
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { ToolOverride } from '../config/index.js';
import type { FollowUpLink, ToolValueModel } from '../contract/index.js';

/** What a tool's model is made from, each later part winning field by field. */
export interface ValueModelParts {
  /** MCP annotations: the side effect of a tool no model speaks for. */
  annotations?: ToolAnnotations;
  /** From the tool's enrichers (`valueModel()`), the first that gives one. */
  fromEnricher?: ToolValueModel;
  /** `[tools."*"]`. */
  wildcard?: ToolOverride;
  /** `[tools."<published name>"]`. */
  named?: ToolOverride;
}

/** Typical answer size when nothing says otherwise: a few KB, like most tool answers in the agent corpus. */
export const DEFAULT_TYPICAL_KB = 4;

/**
 * Read-only tools say so; a tool that says nothing, or says it writes, is never run ahead: an unknown
 * side effect must count as one.
 */
export function sideEffectFromAnnotations(
  annotations: ToolAnnotations | undefined,
): ToolValueModel['sideEffect'] {
  if (annotations?.readOnlyHint === true) return 'read_only';
  if (annotations?.readOnlyHint === false) return 'mutates_external';
  return 'indeterminate';
}

function applyOverride(model: ToolValueModel, override: ToolOverride | undefined): ToolValueModel {
  if (!override) return model;
  const cost = { ...model.cost };
  if (override.typicalKb !== undefined) cost.typicalKb = override.typicalKb;
  if (override.latencyMsP50 !== undefined) cost.latencyMsP50 = override.latencyMsP50;
  if (override.freshnessTtlS !== undefined) cost.freshnessTtlS = override.freshnessTtlS;
  return {
    ...model,
    ...(override.valueClass === undefined ? {} : { valueClass: override.valueClass }),
    ...(override.sideEffect === undefined ? {} : { sideEffect: override.sideEffect }),
    cost,
    ...(override.followUp === undefined ? {} : { followUp: override.followUp }),
    ...(override.invalidates === undefined ? {} : { invalidates: override.invalidates }),
    ...(override.invalidateBy === undefined ? {} : { invalidateBy: override.invalidateBy }),
    ...(override.rateLimitHost === undefined ? {} : { rateLimitHost: override.rateLimitHost }),
    ...(override.speculate === undefined ? {} : { speculate: override.speculate }),
  };
}

/** The merged model: defaults (side effect from annotations), then the enricher's, then "*", then the named block. */
export function resolveValueModel(parts: ValueModelParts): ToolValueModel {
  const defaults: ToolValueModel = {
    valueClass: 'supporting',
    sideEffect: sideEffectFromAnnotations(parts.annotations),
    cost: { typicalKb: DEFAULT_TYPICAL_KB },
    followUp: [],
    invalidates: [],
  };
  const fromEnricher = parts.fromEnricher
    ? { ...defaults, ...parts.fromEnricher, cost: { ...defaults.cost, ...parts.fromEnricher.cost } }
    : defaults;
  return applyOverride(applyOverride(fromEnricher, parts.wildcard), parts.named);
}

/** True for a tool with no side effects: what it answers may be asked for ahead, again, or later. */
export function isReadOnly(model: ToolValueModel): boolean {
  return model.sideEffect === 'pure' || model.sideEffect === 'read_only';
}

/** True when the planner may run the tool ahead of the agent. */
export function mayRunAhead(model: ToolValueModel): boolean {
  if (model.speculate !== undefined) return model.speculate;
  return isReadOnly(model);
}

/**
 * What a `[tools."…"]` block's `follow_up` leaves out of the links the tool's enricher gives it: the list
 * replaces them, it does not add to them. One sentence, naming the block and each link dropped; undefined
 * when no block sets `follow_up` or every built-in link is still in the list.
 */
export function replacedLinksNote(published: string, parts: ValueModelParts): string | undefined {
  const builtIn = parts.fromEnricher?.followUp ?? [];
  const block =
    parts.named?.followUp !== undefined
      ? published
      : parts.wildcard?.followUp !== undefined
        ? '*'
        : undefined;
  if (block === undefined || builtIn.length === 0) return undefined;
  const kept = resolveValueModel(parts).followUp;
  const same = (a: FollowUpLink, b: FollowUpLink) =>
    a.tool === b.tool && a.projection === b.projection && a.projectionArg === b.projectionArg;
  const dropped = builtIn.filter((link) => !kept.some((other) => same(link, other)));
  if (dropped.length === 0) return undefined;
  const named = dropped.map(
    (link) =>
      `${link.tool}${link.projection === undefined ? '' : ` (projection ${link.projection})`} p=${link.probability}`,
  );
  return `[tools."${block}"] follow_up replaces the built-in follow-up links of ${published}; no longer followed: ${named.join(', ')}. List them in follow_up to keep them`;
}
