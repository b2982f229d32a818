// What a tool's enricher chain tells the planner about it, each hook guarded: a hook that throws is logged and skipped.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { describeThrown, type FollowUpLink, type Logger, type ToolValueModel } from '../contract/index.js';
import type { EnrichedTool, PreparedCall } from '../enrich/index.js';
import type { CachedResult } from './cache.js';
import { LISTING_LIMIT } from './listings.js';
import { projectFollowUp } from './projection.js';

/** The first model an enricher of the tool's chain gives; an enricher that throws is skipped (logged). */
export function enricherModel(enriched: EnrichedTool, logger: Logger): ToolValueModel | undefined {
  for (const link of enriched.links) {
    if (!link.enricher.valueModel) continue;
    try {
      const model = link.enricher.valueModel(enriched.ref);
      if (model) return model;
    } catch (error) {
      logger.warn(
        { enricher: link.label, tool: enriched.ref.published, err: describeThrown(error) },
        'planner: valueModel() threw; the tool gets the default model',
      );
    }
  }
  return undefined;
}

/** Argument sets from the first enricher that projects this link itself, else the link's projection. */
export function projectArgs(
  from: EnrichedTool,
  raw: CallToolResult,
  link: FollowUpLink,
  prevArgs: Readonly<Record<string, unknown>>,
  logger: Logger,
): Record<string, unknown>[] {
  for (const chainLink of from.links) {
    if (!chainLink.enricher.projectArgs) continue;
    try {
      const sets = chainLink.enricher.projectArgs(from.ref, raw, link, prevArgs);
      if (Array.isArray(sets)) return sets.slice(0, LISTING_LIMIT);
    } catch (error) {
      logger.warn(
        { enricher: chainLink.label, tool: from.ref.published, err: describeThrown(error) },
        'planner: projectArgs() threw; the link is not run ahead this time',
      );
      return [];
    }
  }
  try {
    return projectFollowUp(raw, link, LISTING_LIMIT);
  } catch (error) {
    logger.warn(
      { tool: from.ref.published, link: link.tool, err: describeThrown(error) },
      'planner: the link’s projection failed',
    );
    return [];
  }
}

/** False when an enricher of the tool says what the cached result read has changed since. */
export function stillFresh(
  prepared: PreparedCall,
  entry: Pick<CachedResult, 'storedAtMs' | 'costMs'>,
  logger: Logger,
): boolean {
  const fetchedAtMs = entry.storedAtMs - (entry.costMs ?? 0);
  for (const link of prepared.enriched.links) {
    if (!link.enricher.isFresh) continue;
    try {
      if (!link.enricher.isFresh(prepared.enriched.ref, prepared.args, fetchedAtMs)) return false;
    } catch (error) {
      logger.warn(
        { enricher: link.label, err: describeThrown(error) },
        'planner: isFresh() threw; the cached result is not served',
      );
      return false;
    }
  }
  return true;
}

/** The rate-limit host the first enricher names for this call, if any. */
export function rateLimitHost(prepared: PreparedCall, logger: Logger): string | undefined {
  for (const link of prepared.enriched.links) {
    if (!link.enricher.rateLimitHost) continue;
    try {
      const host = link.enricher.rateLimitHost(prepared.enriched.ref, prepared.args);
      if (typeof host === 'string') return host;
    } catch (error) {
      logger.warn(
        { enricher: link.label, err: describeThrown(error) },
        'planner: rateLimitHost() threw; the global cap applies alone',
      );
    }
  }
  return undefined;
}
