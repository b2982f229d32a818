// Admission of calls: at most `maxInFlight` run at once in the process and `maxInFlightPerClient` for one client;
// the rest wait in their client's queue, up to a bound, and waiting clients take turns for free slots. One client
// flooding the server therefore holds a bounded share of it, and another client's call waits at most one turn.

export interface AdmissionLimits {
  maxInFlight: number;
  maxInFlightPerClient: number;
  /** Calls of one client waiting for a slot; one more is refused. */
  maxQueuedPerClient: number;
}

/** Why a call was not admitted: its client's queue is full. */
export class AdmissionRefused extends Error {
  constructor(
    readonly running: number,
    readonly waiting: number,
  ) {
    super(`the client has ${running} calls running and ${waiting} waiting`);
  }
}

interface Waiter {
  admit(): void;
  abandon(): void;
}

class ClientLane {
  running = 0;
  readonly waiting: Waiter[] = [];
}

/** Ends an admitted call's hold on its slot; a no-op after the first time. */
export type Release = () => void;

export class RequestAdmission {
  private running = 0;
  private readonly lanes = new Map<string, ClientLane>();
  /** Clients with calls waiting, in the order they get their next turn. */
  private readonly turns: ClientLane[] = [];

  constructor(private readonly limits: AdmissionLimits) {}

  /** Calls running in the whole process. */
  get inFlight(): number {
    return this.running;
  }

  /** A slot for one call of `client` at once, when one is free and nobody of that client waits; else undefined. */
  tryAdmit(client: string): Release | undefined {
    const lane = this.lanes.get(client);
    if (lane === undefined) {
      if (this.running >= this.limits.maxInFlight) return undefined;
      const fresh = new ClientLane();
      this.lanes.set(client, fresh);
      return this.take(client, fresh);
    }
    return lane.waiting.length === 0 && this.hasRoom(lane) ? this.take(client, lane) : undefined;
  }

  /**
   * Waits for a slot for one call of `client`; resolves with its release. Rejects with AdmissionRefused at once
   * when the client's queue is full, and with the signal's reason when the call is abandoned while it waits.
   */
  admit(client: string, signal?: AbortSignal): Promise<Release> {
    signal?.throwIfAborted();
    const lane = this.laneOf(client);
    if (lane.waiting.length === 0 && this.hasRoom(lane)) return Promise.resolve(this.take(client, lane));
    if (lane.waiting.length >= this.limits.maxQueuedPerClient) {
      this.dropIfIdle(client, lane);
      return Promise.reject(new AdmissionRefused(lane.running, lane.waiting.length));
    }
    return new Promise<Release>((resolve, reject) => {
      const onAbort = () => waiter.abandon();
      const waiter: Waiter = {
        admit: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.take(client, lane));
        },
        abandon: () => {
          const at = lane.waiting.indexOf(waiter);
          if (at !== -1) lane.waiting.splice(at, 1);
          if (lane.waiting.length === 0) this.leaveTurns(lane);
          this.dropIfIdle(client, lane);
          reject(signal?.reason ?? new Error('abandoned'));
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (lane.waiting.push(waiter) === 1) this.turns.push(lane);
    });
  }

  private hasRoom(lane: ClientLane): boolean {
    return this.running < this.limits.maxInFlight && lane.running < this.limits.maxInFlightPerClient;
  }

  private laneOf(client: string): ClientLane {
    let lane = this.lanes.get(client);
    if (!lane) this.lanes.set(client, (lane = new ClientLane()));
    return lane;
  }

  private take(client: string, lane: ClientLane): Release {
    this.running++;
    lane.running++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.running--;
      lane.running--;
      this.dropIfIdle(client, lane);
      this.admitWaiting();
    };
  }

  /** Gives free slots to waiting clients in turn; a client at its own cap keeps its place for the next slot. */
  private admitWaiting(): void {
    let passes = this.turns.length;
    while (this.running < this.limits.maxInFlight && passes > 0 && this.turns.length > 0) {
      const lane = this.turns.shift()!;
      if (lane.running >= this.limits.maxInFlightPerClient) {
        this.turns.push(lane);
        passes--;
        continue;
      }
      const waiter = lane.waiting.shift()!;
      if (lane.waiting.length > 0) this.turns.push(lane);
      passes = this.turns.length;
      waiter.admit();
    }
  }

  private leaveTurns(lane: ClientLane): void {
    const at = this.turns.indexOf(lane);
    if (at !== -1) this.turns.splice(at, 1);
  }

  private dropIfIdle(client: string, lane: ClientLane): void {
    if (lane.running === 0 && lane.waiting.length === 0) this.lanes.delete(client);
  }
}
