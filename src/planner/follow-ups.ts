// Plans what follows an answered call: projects its links' argument sets, ranks them, and hands the likely ones to run ahead.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { PlannerConfig } from '../config/index.js';
import { describeThrown, type FollowUpLink, type Logger, type ToolValueModel } from '../contract/index.js';
import type { PreparedCall, ToolPipeline } from '../enrich/index.js';
import type { CallEnvironment } from '../host/index.js';
import type { Observed } from './agent-streams.js';
import { projectArgs } from './enricher-hooks.js';
import {
  type PlannedLink,
  type SetOutcomeStatus,
  type TransitionLearner,
  positionPrior,
} from './learning.js';
import { type Listing, type Listings, LISTING_VIA } from './listings.js';
import { canonicalJson, planFollowUps } from './plan.js';
import { type PreparedSet, prepareSet } from './prepared-set.js';
import { MAX_ARGUMENT_SETS_PER_LINK } from './projection.js';
import type { RunAhead } from './run-ahead.js';
import type { ToolModels } from './tool-models.js';
import type { WasteBudget } from './waste-budget.js';

/** What planning follow-ups needs of the planner's options and its other parts. */
export interface FollowUpsOptions {
  pipeline: ToolPipeline;
  settings: PlannerConfig;
  logger: Logger;
  models: ToolModels;
  listings: Listings;
  budget: WasteBudget;
  runAhead: RunAhead;
}

/** A call the agent made and was answered: what its follow-ups are planned from. */
export interface AnsweredCall {
  /** The agent stream it came on. */
  session: string;
  prepared: PreparedCall;
  model: ToolValueModel;
  /** The plugin's result, before the pipeline finished it for the agent. */
  raw: CallToolResult;
  /** What the learner made of the call; none for a walk through a listing. */
  observation: Observed | undefined;
  /** The listing the call worked through, if any. */
  listing: Listing | undefined;
  /** What the token of the call planned from allows ([auth.scopes]): nothing else is run ahead for it. */
  mayCall: CallEnvironment['mayCall'];
}

/** Plans each answered call's follow-ups once the answer is out, and tells the learner what it planned. */
export class FollowUps {
  constructor(private readonly options: FollowUpsOptions) {}

  schedule(
    call: AnsweredCall,
    /** Whose learned probabilities rank the candidates; default the observation's learner. */
    learner = call.observation?.learner,
  ): void {
    const { model, listing, observation } = call;
    if (model.followUp.length === 0 && listing === undefined) {
      // Nothing to plan: the learner hears so at once, without a turn of the event loop per call.
      observation?.learner.observePlanned(observation.call, []);
      return;
    }
    // After the answer has gone out: planning never delays the agent's own call.
    setImmediate(() => {
      try {
        this.plan(call, learner);
      } catch (error) {
        this.options.logger.warn(
          { tool: call.prepared.enriched.ref.published, err: describeThrown(error) },
          'planner: planning follow-ups failed',
        );
      }
    });
  }

  private plan(answered: AnsweredCall, learner: TransitionLearner | undefined): void {
    const { session, prepared: call, model, raw, observation, listing, mayCall } = answered;
    const { settings, logger, models, runAhead } = this.options;
    if (runAhead.closed) return;
    const { enriched: from, args: prevArgs } = call;
    const published = from.ref.published;
    // Each link's argument sets that map and validate for its tool, in projection order, by the
    // canonical JSON of the agent-side arguments (what planFollowUps keys candidates by).
    const setsOf = new Map<FollowUpLink, Map<string, PreparedSet>>();
    for (const link of model.followUp) {
      const sets = new Map<string, PreparedSet>();
      for (const args of projectArgs(from, raw, link, prevArgs, logger)) {
        const key = canonicalJson(args);
        const set = sets.get(key) ?? prepareSet(this.options.pipeline, logger, link.tool, args);
        if (set) sets.set(key, set);
      }
      setsOf.set(link, sets);
      if (sets.size > MAX_ARGUMENT_SETS_PER_LINK)
        this.options.listings.remember(session, link, sets, mayCall);
    }
    // This call worked through a listing: its next sets follow it, as a link of this tool to itself.
    const continued: FollowUpLink | undefined = listing && {
      tool: published,
      probability: listing.link.probability,
    };
    // Learned apart from the model's own links to the same tool: working through a list is another habit.
    const viaOf = (link: FollowUpLink) => (link === continued ? LISTING_VIA : undefined);
    if (listing && continued) {
      const rest = listing.sets.filter(([, set]) => !listing.consumed.has(set.argsKey));
      setsOf.set(continued, new Map(rest.slice(0, MAX_ARGUMENT_SETS_PER_LINK)));
    }
    const byCandidate = new Map<string, PreparedSet>();
    for (const [link, sets] of setsOf) {
      for (const [key, set] of sets) {
        const id = `${link.tool}\u0000${key}`;
        if (!byCandidate.has(id)) byCandidate.set(id, set);
      }
    }
    const candidates = planFollowUps({
      tool: published,
      result: raw,
      model: continued ? { ...model, followUp: [...model.followUp, continued] } : model,
      modelOf: (tool) => models.modelOf(tool),
      projectArgs: (link) =>
        [...(setsOf.get(link)?.keys() ?? [])].map((key) => JSON.parse(key) as Record<string, unknown>),
      // Without learning, the prior alone: each later set of a link counts half as likely as the one before.
      probabilityOf: learner
        ? (link, position) =>
            learner.probability(published, link.tool, position, link.probability, viaOf(link))
        : (link, position) => positionPrior(link.probability, position),
      isCovered: (tool, key) => {
        const set = byCandidate.get(`${tool}\u0000${key}`);
        return set === undefined || runAhead.isCovered(session, tool, set);
      },
      settings: { probabilityFloor: settings.probabilityFloor, tokenBudget: settings.tokenBudget },
    });
    const statuses = new Map<string, SetOutcomeStatus>();
    for (const candidate of candidates) {
      const id = `${candidate.tool}\u0000${candidate.key}`;
      const set = byCandidate.get(id);
      if (!set) continue;
      // The caller could not make this call itself: left as skipped, which teaches the learner nothing of it.
      if (mayCall && !mayCall(candidate.tool)) continue;
      if (!(learner?.speculationAllowed(candidate.tool) ?? true)) {
        statuses.set(id, 'suppressed');
        continue;
      }
      const ticket = this.options.budget.admit(candidate.probability);
      if (ticket) {
        statuses.set(id, 'dispatched');
        runAhead.dispatch(session, candidate, set, ticket);
      } else {
        logger.debug(
          { tool: candidate.tool, probability: candidate.probability },
          'planner: not run ahead; the waste budget has no room for so unlikely a call',
        );
      }
    }
    if (observation !== undefined) {
      const links: PlannedLink[] = [...setsOf].map(([link, sets]) => ({
        to: link.tool,
        prior: link.probability,
        ...(viaOf(link) === undefined ? {} : { via: LISTING_VIA }),
        sets: [...sets].slice(0, MAX_ARGUMENT_SETS_PER_LINK).map(([key, set]) => ({
          argsKey: set.argsKey,
          status: statuses.get(`${link.tool}\u0000${key}`) ?? 'skipped',
        })),
      }));
      observation.learner.observePlanned(observation.call, links);
    }
  }
}
