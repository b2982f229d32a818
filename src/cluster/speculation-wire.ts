// How shared speculation is laid out in Redis: a cache key's id, the stored value and the claim, the Lua scripts that
// claim and settle in one step each, and the messages on the `spec` channel.
import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { SharedEntry } from '../planner/index.js';
import { parseChannelMessage } from './shared-redis.js';

export const CHANNEL = 'spec';

/** What travels on the channel. `from` lets a process skip its own invalidations (applied already). */
export type Message =
  | { from: string; k: 'settled' | 'failed' | 'served'; id: string }
  | { from: string; k: 'invalidate'; tools: string[]; match?: Record<string, unknown> }
  | { from: string; k: 'budget'; n: number; h: number; w: number };

/** The stored value after its `<gen>|<epoch>|` stamp. */
export interface Payload {
  s: number;
  c?: number;
  r: CallToolResult;
}

// KEYS: entry, claim, gen, epoch. ARGV: claim value, claim ttl ms.
export const CLAIM_SCRIPT = `
local gen = redis.call('GET', KEYS[3]) or '0'
local epoch = redis.call('GET', KEYS[4]) or '0'
local stamp = gen .. '|' .. epoch .. '|'
local stored = redis.call('GET', KEYS[1])
if stored and string.sub(stored, 1, #stamp) == stamp then return {'covered'} end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return {'claimed', gen, epoch} end
return {'taken'}`;

// KEYS: entry, claim, gen, epoch. ARGV: claim value, stamp at claim, payload, ttl ms, channel, settled msg, failed msg.
// An empty payload releases the claim without storing. "failed" is told only for a claim still ours: another
// process's claim on the key (ours lapsed) has waiters of its own.
export const SETTLE_SCRIPT = `
local stored = 0
local stamp = (redis.call('GET', KEYS[3]) or '0') .. '|' .. (redis.call('GET', KEYS[4]) or '0') .. '|'
if ARGV[3] ~= '' and stamp == ARGV[2] then
  redis.call('SET', KEYS[1], stamp .. ARGV[3], 'PX', ARGV[4])
  stored = 1
end
local mine = redis.call('GET', KEYS[2]) == ARGV[1]
if mine then redis.call('DEL', KEYS[2]) end
if stored == 1 then redis.call('PUBLISH', ARGV[5], ARGV[6]) elseif mine then redis.call('PUBLISH', ARGV[5], ARGV[7]) end
return stored`;

/** A cache key's id in Redis: fixed length, and the principal and arguments are not spelled out in key names. */
export function idOf(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 32);
}

export function entryOf(value: string | null | undefined, stamp: string): SharedEntry | undefined {
  if (typeof value !== 'string' || !value.startsWith(stamp)) return undefined;
  try {
    const payload = JSON.parse(value.slice(stamp.length)) as Payload;
    return {
      result: payload.r,
      storedAtMs: payload.s,
      ...(payload.c === undefined ? {} : { costMs: payload.c }),
    };
  } catch {
    return undefined;
  }
}

export function claimOf(value: string | null | undefined): { startedAtMs: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const startedAtMs = Number(value.slice(value.lastIndexOf('|') + 1));
  return Number.isFinite(startedAtMs) ? { startedAtMs } : undefined;
}

export function parseMessage(text: string): Message | undefined {
  const value = parseChannelMessage(text);
  if (value === undefined) return undefined;
  if (value.k === 'invalidate')
    return Array.isArray(value.tools) && value.tools.every((tool) => typeof tool === 'string')
      ? (value as Message)
      : undefined;
  if ((value.k === 'settled' || value.k === 'failed' || value.k === 'served') && typeof value.id === 'string')
    return value as Message;
  if (value.k === 'budget')
    return Number.isSafeInteger(value.n) &&
      (value.n as number) >= 0 &&
      Number.isFinite(value.h) &&
      Number.isFinite(value.w)
      ? (value as Message)
      : undefined;
  return undefined;
}
