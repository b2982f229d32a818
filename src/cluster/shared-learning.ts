// The planner's learned follow-up counts shared over Redis: each process adds its deltas to a hash per principal and
// reads the totals back, in one Lua script, so that no exchange is ever half applied or read half applied.
import { randomUUID } from 'node:crypto';
import {
  type LearnedCounts,
  type LearnedEdgeState,
  type LearningExchange,
  MAX_ARGUMENT_SETS_PER_LINK,
  type PrincipalDelta,
  type RelayedCall,
  type SharedLearning,
  edgeKey,
  emptyEdge,
} from '../planner/index.js';
import { DEFAULT_LEARNING_SYNC_MS } from '../config/index.js';
import { type SharedRedis, parseChannelMessage } from './shared-redis.js';

/** How long a principal's counts live after its last push (each push renews it). */
export const LEARNING_TTL_MS = 30 * 24 * 60 * 60 * 1_000;
/** Principals kept in Redis, as many as a process keeps (DEFAULT_MAX_PRINCIPALS); the least recently pushed go. */
export const MAX_SHARED_PRINCIPALS = 1_000;

/** Under the prefix: a hash per principal, and the index of principals by last push. */
const HASH_KEY = 'learn:p:';
const INDEX_KEY = 'learn:principals';
/** The channel agent calls are relayed on, for the learning windows of the other processes. */
export const CALLS_CHANNEL = 'learn:calls';
/** Arguments longer than this (canonical JSON) are not relayed: the call still reaches the windows, unmatched. */
export const MAX_RELAYED_ARGS_CHARS = 4_096;

// KEYS[1]: the index (sorted set of principals, scored by their last push in ms). KEYS[2..]: one hash per entry.
// ARGV: now ms, TTL ms, max principals, the hashes' key prefix, then per entry: principal, "push" or "read", field
// count, then (field, value) pairs. Pushes run first, then the index is trimmed (principals past the cap or the
// TTL lose their hash), then reads: totals read hold every push of this call.
const EXCHANGE_SCRIPT = `
local now, ttl, max, prefix = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local a, reads = 5, {}
for k = 2, #KEYS do
  local principal, mode, n = ARGV[a], ARGV[a + 1], tonumber(ARGV[a + 2])
  a = a + 3
  if mode == 'push' then
    for i = 1, n do
      local field, value = ARGV[a], ARGV[a + 1]
      a = a + 2
      if string.sub(field, 1, 2) == 'p|' then
        redis.call('HSET', KEYS[k], field, value)
      else
        redis.call('HINCRBY', KEYS[k], field, value)
      end
    end
    redis.call('PEXPIRE', KEYS[k], ttl)
    redis.call('ZADD', KEYS[1], now, principal)
  else
    reads[#reads + 1] = k
  end
end
local stale = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - ttl))
for _, p in ipairs(stale) do redis.call('DEL', prefix .. p) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - ttl))
local count = redis.call('ZCARD', KEYS[1])
if count > max then
  local gone = redis.call('ZRANGE', KEYS[1], 0, count - max - 1)
  for _, p in ipairs(gone) do redis.call('DEL', prefix .. p) end
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, count - max - 1)
end
if count > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
local out = {}
for i, k in ipairs(reads) do out[i] = redis.call('HGETALL', KEYS[k]) end
return out
`;

export interface RedisSharedLearningOptions {
  /** Default DEFAULT_LEARNING_SYNC_MS. */
  syncEveryMs?: number;
  /** Default LEARNING_TTL_MS. */
  ttlMs?: number;
  /** Default MAX_SHARED_PRINCIPALS. */
  maxPrincipals?: number;
  /** Clock, epoch ms. Default `Date.now`. */
  now?: () => number;
}

export class RedisSharedLearning implements SharedLearning {
  readonly syncEveryMs: number;
  private readonly ttlMs: number;
  private readonly maxPrincipals: number;
  private readonly now: () => number;
  private sha: string | undefined;
  private readonly origin = randomUUID();
  private readonly listeners: ((call: RelayedCall) => void)[] = [];

  constructor(
    private readonly redis: SharedRedis,
    options: RedisSharedLearningOptions = {},
  ) {
    this.syncEveryMs = options.syncEveryMs ?? DEFAULT_LEARNING_SYNC_MS;
    this.ttlMs = options.ttlMs ?? LEARNING_TTL_MS;
    this.maxPrincipals = options.maxPrincipals ?? MAX_SHARED_PRINCIPALS;
    this.now = options.now ?? Date.now;
  }

  async exchange(deltas: readonly PrincipalDelta[], read: readonly string[]): Promise<LearningExchange> {
    // Refused at once while down: the deltas stay with the learners until Redis returns.
    if (!this.redis.client.isReady) return { kind: 'unavailable', reason: 'redis unreachable' };
    const keys = [this.redis.key(INDEX_KEY)];
    const args = [
      String(this.now()),
      String(this.ttlMs),
      String(this.maxPrincipals),
      this.redis.key(HASH_KEY),
    ];
    for (const { principal, counts } of deltas) {
      const fields = fieldsOf(counts);
      keys.push(this.redis.key(HASH_KEY + principal));
      args.push(principal, 'push', String(fields.length / 2), ...fields);
    }
    for (const principal of read) {
      keys.push(this.redis.key(HASH_KEY + principal));
      args.push(principal, 'read', '0');
    }
    let reply: unknown;
    try {
      reply = await this.run(keys, args);
    } catch (error) {
      // A timeout may hide a script that ran: its deltas are pushed again (counted twice) rather than lost.
      return { kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) };
    }
    if (!Array.isArray(reply) || reply.length !== read.length)
      return { kind: 'unavailable', reason: 'unexpected reply to the learning script' };
    const totals = new Map<string, LearnedCounts>();
    read.forEach((principal, i) => totals.set(principal, countsOf(reply[i])));
    return { kind: 'synced', totals };
  }

  relayCall(call: RelayedCall): void {
    const argsKey = call.argsKey.length <= MAX_RELAYED_ARGS_CHARS ? call.argsKey : '';
    // PUBLISH is refused at once while Redis is down: that call is missed by the others' windows, nothing more.
    this.redis.publish(
      CALLS_CHANNEL,
      JSON.stringify({ from: this.origin, p: call.principal, s: call.stream, t: call.tool, a: argsKey }),
    );
  }

  onRelayedCall(listener: (call: RelayedCall) => void): void {
    this.listeners.push(listener);
    if (this.listeners.length > 1) return;
    let confirmed = false;
    this.redis.subscribe(
      CALLS_CHANNEL,
      (message) => {
        const call = this.parseRelayed(message);
        if (call !== undefined) for (const hear of this.listeners) hear(call);
      },
      () => {
        // Once per process: from here the other processes' calls reach this one's learning windows.
        if (confirmed) return;
        confirmed = true;
        this.redis.logger.info(
          { channel: this.redis.key(CALLS_CHANNEL) },
          'cluster: agent calls relayed to the learning windows of every process',
        );
      },
    );
  }

  /** A call another process relayed, or undefined for this process's own echo and for anything else. */
  private parseRelayed(message: string): RelayedCall | undefined {
    const value = parseChannelMessage(message);
    if (value === undefined || value.from === this.origin) return undefined;
    const { p, s, t, a } = value;
    if (typeof p !== 'string' || typeof s !== 'string' || typeof t !== 'string' || typeof a !== 'string')
      return undefined;
    return { principal: p, stream: s, tool: t, argsKey: a };
  }

  /** EVALSHA, and EVAL once when Redis does not know the script (first use, or after a restart). */
  private async run(keys: string[], args: string[]): Promise<unknown> {
    const { client } = this.redis;
    if (this.sha !== undefined) {
      try {
        this.redis.roundTrip();
        return await client.evalSha(this.sha, { keys, arguments: args });
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      }
    }
    this.redis.roundTrip();
    const sha = String(await client.scriptLoad(EXCHANGE_SCRIPT));
    this.sha = sha;
    this.redis.roundTrip();
    return client.evalSha(sha, { keys, arguments: args });
  }
}

/**
 * A principal's counts as hash fields and values: `c|<tool>` calls, `f|<edge>` followed, `o<i>|<edge>` offered and
 * `m<i>|<edge>` matched at position i (all added), `p|<edge>` the prior (replaced). `<edge>` is the planner's
 * edgeKey (from, to, via joined by NUL, which no tool name holds).
 */
export function fieldsOf(counts: LearnedCounts): string[] {
  const fields: string[] = [];
  for (const [tool, { calls }] of Object.entries(counts.tools))
    if (calls > 0) fields.push(`c|${tool}`, String(calls));
  for (const edge of counts.edges) {
    const key = edgeKey(edge.from, edge.to, edge.via);
    fields.push(`p|${key}`, String(edge.prior));
    if (edge.followed > 0) fields.push(`f|${key}`, String(edge.followed));
    edge.offered.forEach((n, i) => n > 0 && fields.push(`o${i}|${key}`, String(n)));
    edge.matched.forEach((n, i) => n > 0 && fields.push(`m${i}|${key}`, String(n)));
  }
  return fields;
}

/** The counts in a principal's hash (HGETALL's flat reply); a field it does not know is skipped. */
export function countsOf(reply: unknown): LearnedCounts {
  const tools: LearnedCounts['tools'] = {};
  const edges = new Map<string, LearnedEdgeState>();
  const edge = (key: string): LearnedEdgeState | undefined => {
    const found = edges.get(key);
    if (found !== undefined) return found;
    const [from, to, via, ...rest] = key.split('\u0000');
    if (from === undefined || to === undefined || rest.length > 0) return undefined;
    const made = emptyEdge(from, to, via);
    edges.set(key, made);
    return made;
  };
  const flat = Array.isArray(reply) ? reply : [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const [field, raw] = [String(flat[i]), Number(flat[i + 1])];
    const bar = field.indexOf('|');
    if (bar < 0 || !Number.isFinite(raw) || raw < 0) continue;
    const [kind, name] = [field.slice(0, bar), field.slice(bar + 1)];
    if (kind === 'c') {
      tools[name] = { calls: Math.floor(raw) };
      continue;
    }
    const position = Number(kind.slice(1));
    const target = edge(name);
    if (target === undefined) continue;
    if (kind === 'p') target.prior = Math.min(1, raw);
    else if (kind === 'f') target.followed = Math.floor(raw);
    else if (kind.length === 2 && position >= 0 && position < MAX_ARGUMENT_SETS_PER_LINK) {
      if (kind[0] === 'o') target.offered[position] = Math.floor(raw);
      else if (kind[0] === 'm') target.matched[position] = Math.floor(raw);
    }
  }
  return { tools, edges: [...edges.values()] };
}
