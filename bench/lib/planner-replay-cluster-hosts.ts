// The host under test of the cluster replay's `three` mode: several Foresight hosts in this worker thread, each a
// member of one cluster on one Redis (its own joinCluster, a key prefix of the run's own, Redis round-trips
// counted), their plugins counted into the same logs, and one agent client whose requests a round-robin load
// balancer spreads over them.
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { createClient } from 'redis';
import { type Cluster, joinCluster } from '../../src/cluster/index.js';
import { redisEndpoint } from '../../src/config/index.js';
import type { Logger } from '../../src/contract/index.js';
import type { PlannerCounters } from '../../src/planner/index.js';
import type { AgentClient } from './planner-replay-agent.js';
import {
  type ReplayHost,
  type ReplayHostOptions,
  connectAgentRoundRobin,
  startReplayHost,
} from './planner-replay-host.js';

/** Where the members meet: plain data, posted to the worker with the run. */
export interface ClusterJob {
  redisUrl: string;
  /** Fresh per run (its keys deleted after it), so no run reads another's results. */
  keyPrefix: string;
  processes: number;
}

/** What the session runner needs of the host(s) under test, one host or a cluster of them. */
export interface HostsUnderTest {
  /** The agent's client: the host's own, or one whose requests go to the members in turn. */
  client: AgentClient;
  /** Every client the agent uses (each lists the tools before the session, as each process would be asked). */
  clients: Client[];
  problems: string[];
  droppedKeys: string[];
  /** Redis commands sent so far by every member; undefined for a host of its own. */
  redisRoundTrips(): number | undefined;
  /** The planner's counters, summed over the members. */
  readStats(): Promise<{ counters: PlannerCounters } | { unavailable: string }>;
  close(): Promise<void>;
}

/** One host as the runner sees it. */
export function singleHost(host: ReplayHost): HostsUnderTest {
  return {
    client: host.client,
    clients: [host.client],
    problems: host.logs.problems,
    droppedKeys: host.droppedKeys,
    redisRoundTrips: () => undefined,
    readStats: () => host.readStats(),
    close: () => host.close(),
  };
}

/** How long a member may take to have its subscriptions confirmed by Redis before the run gives up. */
const SUBSCRIBED_TIMEOUT_MS = 10_000;
/** The line joinCluster's event bus logs once Redis confirmed its subscription (as the cluster tests wait for). */
const SUBSCRIBED_LINE = 'cluster: change events shared over redis';

/** A logger for one member's cluster part: warnings kept as problems, and the subscription line awaited. */
function memberLogger(problems: string[], subscribed: () => void): Logger {
  const keep = (level: string) => (obj: unknown, msg?: string) => {
    if (problems.length < 200) problems.push(`${level}: cluster: ${msg ?? String(obj)}`);
  };
  const quiet = () => {};
  const logger: Logger = {
    trace: quiet,
    debug: quiet,
    info: (obj: unknown, msg?: string) => {
      if ((msg ?? obj) === SUBSCRIBED_LINE) subscribed();
    },
    warn: keep('warn'),
    error: keep('error'),
    child: () => logger,
  };
  return logger;
}

/** Deletes every key under the run's prefix (SCAN, not KEYS: the machine's Redis holds other sessions' keys). */
export async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const client = createClient({ url: redisUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 }))
      if (keys.length > 0) await client.del(keys);
  } finally {
    client.destroy();
  }
}

function sumCounters(all: readonly PlannerCounters[]): PlannerCounters {
  const total = { ...all[0] } as PlannerCounters;
  for (const counters of all.slice(1))
    for (const name of Object.keys(total) as (keyof PlannerCounters)[]) total[name] += counters[name];
  return total;
}

/**
 * `cluster.processes` hosts from the same options (each its own state file copy, its own TOML), every one
 * a member of the cluster, started once Redis has confirmed each member's subscriptions.
 */
export async function startClusterHosts(
  options: ReplayHostOptions,
  cluster: ClusterJob,
): Promise<HostsUnderTest> {
  const problems: string[] = [];
  const members: Cluster[] = [];
  const hosts: ReplayHost[] = [];
  let roundTrips = 0;
  // One key for every member, as `[server] request_state_key_env` gives a cluster one.
  const requestStateKey = randomBytes(32).toString('hex');
  const close = async () => {
    await Promise.allSettled(hosts.splice(0).map((host) => host.close()));
    await Promise.allSettled(members.splice(0).map((member) => member.close()));
    await deleteKeys(cluster.redisUrl, cluster.keyPrefix).catch((error: unknown) =>
      problems.push(`warn: keys under ${cluster.keyPrefix} not deleted: ${String(error)}`),
    );
  };
  try {
    for (let i = 0; i < cluster.processes; i++) {
      let subscribed: () => void = () => {};
      const confirmed = new Promise<void>((resolve) => (subscribed = resolve));
      const member = joinCluster({
        redisUrl: cluster.redisUrl,
        endpoint: redisEndpoint(cluster.redisUrl),
        keyPrefix: cluster.keyPrefix,
        logger: memberLogger(problems, subscribed),
        onRoundTrip: () => (roundTrips += 1),
      });
      members.push(member);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        confirmed,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`cluster member ${i}: Redis did not confirm its subscriptions`)),
            SUBSCRIBED_TIMEOUT_MS,
          );
        }),
      ]).finally(() => clearTimeout(timer));
      hosts.push(
        await startReplayHost({
          ...options,
          name: `${options.name}-p${i}`,
          cluster: { bus: member.bus, shared: member.shared, requestStateKey },
        }),
      );
    }
  } catch (error) {
    await close();
    throw error;
  }
  const urls = hosts.flatMap((host) => (host.url === undefined ? [] : [host.url]));
  let agent: Client;
  try {
    if (urls.length !== hosts.length) throw new Error('the cluster replay runs in the 2026-07-28 era only');
    agent = await connectAgentRoundRobin(urls);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    client: agent,
    // The agent's client lists the tools once; each member is asked as well, as its own first client would.
    clients: [agent, ...hosts.map((host) => host.client)],
    get problems() {
      return [...problems, ...hosts.flatMap((host) => host.logs.problems)];
    },
    droppedKeys: [...new Set(hosts.flatMap((host) => host.droppedKeys))],
    redisRoundTrips: () => roundTrips,
    async readStats() {
      const read = await Promise.all(hosts.map((host) => host.readStats()));
      const unavailable = read.find((stats) => 'unavailable' in stats);
      if (unavailable) return unavailable;
      return {
        counters: sumCounters(read.map((stats) => (stats as { counters: PlannerCounters }).counters)),
      };
    },
    close,
  };
}
