// The oauth bench's knobs (tools/call over Streamable HTTP with the static bearer token vs an OAuth JWT, both eras):
// defaults that finish in about a minute on 2 cores, each overridable by an environment variable.
import { positiveInt } from './settings.js';

export interface OAuthBenchSettings {
  /** A/B rounds per cell; the order flips every round. BENCH_OAUTH_ROUNDS, default 30 (10 left one cell's ratio to noise). */
  rounds: number;
  /** Calls per side per round (each a POST with its Authorization header). BENCH_OAUTH_CALLS, default 200. */
  calls: number;
  /** Unmeasured calls per side before each cell's rounds. BENCH_OAUTH_WARMUP, default 300. */
  warmupCalls: number;
  /** Calls kept in flight in the concurrent cells. BENCH_OAUTH_IN_FLIGHT, default 8. */
  inFlight: number;
  /** The JWT side's calls/s over the static token side's: at least this (issue 20). */
  targetRatio: number;
}

export function readOAuthSettings(): OAuthBenchSettings {
  return {
    rounds: positiveInt('BENCH_OAUTH_ROUNDS', 30),
    calls: positiveInt('BENCH_OAUTH_CALLS', 200),
    warmupCalls: positiveInt('BENCH_OAUTH_WARMUP', 300),
    inFlight: positiveInt('BENCH_OAUTH_IN_FLIGHT', 8),
    targetRatio: 0.95,
  };
}
