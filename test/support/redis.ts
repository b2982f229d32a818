// Redis for the cluster tests: the machine's (127.0.0.1:6379, as in CI) under a key prefix of each test file's own,
// cleaned up at the end, and a private redis-server a test may stop and start again.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { probeRedis } from '../../src/cluster/index.js';
import { PATIENCE_MS } from './patience.js';

export const SHARED_REDIS_URL = 'redis://127.0.0.1:6379';

/** Whether the machine's Redis answers; the reason says why not, for the skipped suite's name. */
export async function sharedRedis(): Promise<{ ok: true } | { ok: false; reason: string }> {
  const probe = await probeRedis(SHARED_REDIS_URL, 1_000);
  return probe.ok
    ? { ok: true }
    : { ok: false, reason: `redis unreachable at 127.0.0.1:6379: ${probe.reason}` };
}

/** A key prefix no other test run uses. */
export function testPrefix(): string {
  return `foresight-test:${randomUUID()}:`;
}

/** Deletes every key under `prefix` (SCAN, not KEYS: the machine's Redis may hold much else). */
export async function deleteKeys(prefix: string, url = SHARED_REDIS_URL): Promise<number> {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  let deleted = 0;
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      if (keys.length > 0) deleted += await client.del(keys);
    }
  } finally {
    client.destroy();
  }
  return deleted;
}

/** Whether a `redis-server` binary is on the PATH, for the tests that stop and start one of their own. */
export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A redis-server of the test's own, on `port`, with no persistence; `stop()` kills it, `start()` starts it again. */
export class PrivateRedis {
  #child: ChildProcess | undefined;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.#child = child;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(
        () => reject(new Error(`redis-server on ${this.port} did not start: ${out}`)),
        5_000,
      );
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', () => {
        clearTimeout(timer);
        reject(new Error(`redis-server on ${this.port} exited: ${out}`));
      });
    });
  }

  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}

/** Polls `condition` every 20 ms for up to `ms` (default: PATIENCE_MS): pub/sub delivery and reconnects are asynchronous by nature. */
export async function until(
  condition: () => boolean,
  ms = PATIENCE_MS,
  what = 'the condition',
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Subscribers Redis counts on a channel (the full name, prefix included): PUBSUB NUMSUB. */
export async function subscriberCount(channel: string, url = SHARED_REDIS_URL): Promise<number> {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const reply = (await client.sendCommand(['PUBSUB', 'NUMSUB', channel])) as unknown[];
    return Number(reply[1] ?? 0);
  } finally {
    client.destroy();
  }
}

/** Polls `read` every 20 ms until `condition` holds of what it read, for up to PATIENCE_MS. */
async function untilRead<T>(
  read: () => Promise<T>,
  condition: (value: T) => boolean,
  what: string,
): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    const value = await read();
    if (condition(value)) return;
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${PATIENCE_MS} ms waiting for ${what} (last: ${JSON.stringify(value)})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What Redis itself must show before a test goes on. */
export interface RedisSees {
  url?: string;
  /** Channels (full names) and how many subscribers each must have: a member's SUBSCRIBE confirmed. */
  subscribers?: Record<string, number>;
  /** Integer keys (full names) and the least value each must have reached (e.g. the epoch members bump). */
  atLeast?: Record<string, number>;
}

/**
 * Every cluster member's connections up, then what their 'ready' sends (SUBSCRIBE, the speculation's epoch bump)
 * seen in Redis itself: it reaches Redis one round trip after `reachable()` turns true.
 */
export async function membersReady(
  clusters: readonly { reachable(): boolean }[],
  sees: RedisSees = {},
): Promise<void> {
  await until(() => clusters.every((cluster) => cluster.reachable()), PATIENCE_MS, 'redis connections');
  const url = sees.url ?? SHARED_REDIS_URL;
  for (const [channel, count] of Object.entries(sees.subscribers ?? {}))
    await untilRead(
      () => subscriberCount(channel, url),
      (seen) => seen === count,
      `${count} subscribers on ${channel}`,
    );
  for (const [key, least] of Object.entries(sees.atLeast ?? {}))
    await untilRead(
      async () => {
        const client = createClient({ url });
        client.on('error', () => undefined);
        await client.connect();
        try {
          return Number((await client.get(key)) ?? 0);
        } finally {
          client.destroy();
        }
      },
      (seen) => seen >= least,
      `${key} at ${least} or more`,
    );
}
