// The argument sets a follow-up link projected beyond those run ahead at once, kept per session for the agent to work through.
import type { FollowUpLink } from '../contract/index.js';
import type { CallEnvironment } from '../host/index.js';
import type { PreparedSet } from './prepared-set.js';

/**
 * The argument sets one follow-up link projected, beyond the few run ahead at once: as the agent works
 * through them (reading the files a search listed, one after another), the next ones run ahead.
 */
export interface Listing {
  link: FollowUpLink;
  /** By the canonical JSON of the agent-side arguments, in projection order. */
  sets: [string, PreparedSet][];
  /** `argsKey`s the agent has called. */
  consumed: Set<string>;
  /** What the token of the call that listed them allows: the walk runs nothing ahead it could not call. */
  mayCall: CallEnvironment['mayCall'];
}

/** How the learner names the edge of a call to the next items of a listing it belongs to. */
export const LISTING_VIA = 'listing';
/** Argument sets a listing keeps for the agent to work through. */
export const LISTING_LIMIT = 20;
/** Listings kept per session, newest first. */
const LISTINGS_PER_SESSION = 4;
/** Sessions whose listings are kept; the least recently active goes first. */
const MAX_SESSIONS_WITH_LISTINGS = 1024;

/** Each session's newest listings; the sessions least recently active are forgotten first. */
export class Listings {
  private readonly listings = new Map<string, Listing[]>();

  /** Keeps a link's projected sets for the agent to work through (newest listings first, a few per session). */
  remember(
    session: string,
    link: FollowUpLink,
    sets: Map<string, PreparedSet>,
    mayCall: CallEnvironment['mayCall'],
  ): void {
    const kept = this.listings.get(session) ?? [];
    kept.unshift({ link, sets: [...sets], consumed: new Set(), mayCall });
    // Re-inserted, so the map's order is the sessions' last activity: a client that never said goodbye
    // is forgotten first.
    this.listings.delete(session);
    this.listings.set(session, kept.slice(0, LISTINGS_PER_SESSION));
    if (this.listings.size > MAX_SESSIONS_WITH_LISTINGS)
      this.listings.delete(this.listings.keys().next().value as string);
  }

  /** The newest listing of the session that holds this call, now marked as called; undefined when none does. */
  consume(session: string, tool: string, argsKey: string): Listing | undefined {
    const listing = this.listings
      .get(session)
      ?.find((kept) => kept.link.tool === tool && kept.sets.some(([, set]) => set.argsKey === argsKey));
    listing?.consumed.add(argsKey);
    return listing;
  }

  /** The session has ended: its listings go. */
  drop(session: string): void {
    this.listings.delete(session);
  }
}
