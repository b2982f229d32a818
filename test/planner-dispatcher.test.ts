// The speculative call dispatcher: global and per-host caps, FIFO starts, the think window, cancel and close.
import { describe, expect, it } from 'vitest';
import { Dispatcher, type DispatcherOptions, type DispatchJob } from '../src/planner/index.js';

const T0 = 1_700_000_000_000;

/** One job the test finishes by hand; `log` records every start and drop of every job, in order. */
interface TestJob {
  job: DispatchJob;
  runs: number;
  drops: number;
  /** Settles the job's run() (resolve or reject). */
  finish(): void;
  fail(): void;
}

interface Rig {
  dispatcher: Dispatcher;
  /** "start x" / "drop x" in the order they happened. */
  log: string[];
  /** The most jobs running at once so far. */
  peak(): number;
  /** The most jobs running at once for one host so far. */
  peakFor(host: string): number;
  make(name: string, host?: string): TestJob;
  advance(ms: number): void;
}

function setup(options: Partial<DispatcherOptions> = {}): Rig {
  let nowMs = T0;
  const log: string[] = [];
  let running = 0;
  let peak = 0;
  const runningFor = new Map<string, number>();
  const peakFor = new Map<string, number>();
  const dispatcher = new Dispatcher({
    maxInFlight: 2,
    perHostInFlight: 2,
    thinkWindowMs: 30_000,
    now: () => nowMs,
    ...options,
  });
  return {
    dispatcher,
    log,
    peak: () => peak,
    peakFor: (host) => peakFor.get(host) ?? 0,
    advance: (ms) => {
      nowMs += ms;
    },
    make(name, host) {
      let settle: ((ok: boolean) => void) | undefined;
      const testJob: TestJob = {
        runs: 0,
        drops: 0,
        job: {
          host,
          run: () => {
            testJob.runs += 1;
            log.push(`start ${name}`);
            running += 1;
            peak = Math.max(peak, running);
            if (host !== undefined) {
              const now = (runningFor.get(host) ?? 0) + 1;
              runningFor.set(host, now);
              peakFor.set(host, Math.max(peakFor.get(host) ?? 0, now));
            }
            return new Promise<void>((resolve, reject) => {
              settle = (ok) => {
                running -= 1;
                if (host !== undefined) runningFor.set(host, (runningFor.get(host) ?? 1) - 1);
                if (ok) resolve();
                else reject(new Error(`${name} failed`));
              };
            });
          },
          drop: () => {
            testJob.drops += 1;
            log.push(`drop ${name}`);
          },
        },
        finish: () => {
          if (!settle) throw new Error(`${name} has not started`);
          settle(true);
        },
        fail: () => {
          if (!settle) throw new Error(`${name} has not started`);
          settle(false);
        },
      };
      return testJob;
    },
  };
}

/** Lets the dispatcher see settled runs: it frees a slot in a `.then` of the job's promise. */
async function flush(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('Dispatcher: global cap', () => {
  it('never runs more than maxInFlight jobs, across many submits', async () => {
    const rig = setup({ maxInFlight: 3, perHostInFlight: 10 });
    const jobs = Array.from({ length: 10 }, (_, i) => rig.make(`j${i}`));
    for (const { job } of jobs) rig.dispatcher.submit(job);
    expect(rig.dispatcher.inFlight).toBe(3);
    expect(rig.dispatcher.queued).toBe(7);
    expect(rig.log).toEqual(['start j0', 'start j1', 'start j2']);

    // Finish them one at a time, oldest running first: each frees exactly one slot.
    for (let finished = 0; finished < 10; finished++) {
      jobs[finished]?.finish();
      await flush();
      const left = 10 - finished - 1;
      expect(rig.dispatcher.inFlight).toBe(Math.min(3, left));
      expect(rig.dispatcher.queued).toBe(Math.max(0, left - 3));
    }
    expect(rig.peak()).toBe(3);
    expect(jobs.map((j) => j.runs)).toEqual(Array(10).fill(1));
    expect(jobs.map((j) => j.drops)).toEqual(Array(10).fill(0));
  });

  it('holds the cap across turns: jobs of a later turn wait for those still running from an earlier one', async () => {
    const rig = setup({ maxInFlight: 2, perHostInFlight: 10 });
    const first = [rig.make('t1-a'), rig.make('t1-b')];
    for (const { job } of first) rig.dispatcher.submit(job);
    // The next turn plans three more while the first turn's calls are still running.
    const second = [rig.make('t2-a'), rig.make('t2-b'), rig.make('t2-c')];
    for (const { job } of second) rig.dispatcher.submit(job);
    expect(rig.dispatcher.inFlight).toBe(2);
    expect(rig.dispatcher.queued).toBe(3);
    expect(second.map((j) => j.runs)).toEqual([0, 0, 0]);

    first[1]?.finish();
    await flush();
    expect(rig.log).toEqual(['start t1-a', 'start t1-b', 'start t2-a']);
    expect(rig.dispatcher.inFlight).toBe(2);
    expect(rig.dispatcher.queued).toBe(2);
    expect(rig.peak()).toBe(2);
  });
});

describe('Dispatcher: per-host cap', () => {
  it('lets a full host wait without holding back jobs for other hosts', async () => {
    const rig = setup({ maxInFlight: 4, perHostInFlight: 1 });
    const a1 = rig.make('a1', 'a.example');
    const a2 = rig.make('a2', 'a.example');
    const a3 = rig.make('a3', 'a.example');
    const b1 = rig.make('b1', 'b.example');
    const b2 = rig.make('b2', 'b.example');
    for (const { job } of [a1, a2, a3, b1, b2]) rig.dispatcher.submit(job);
    expect(rig.log).toEqual(['start a1', 'start b1']);
    expect(rig.dispatcher.inFlight).toBe(2);
    expect(rig.dispatcher.queued).toBe(3);

    a1.finish();
    await flush();
    // a2 takes host a's slot; a3 still waits behind it, b2 behind b1.
    expect(rig.log).toEqual(['start a1', 'start b1', 'start a2']);
    expect(rig.dispatcher.queued).toBe(2);

    b1.finish();
    await flush();
    expect(rig.log).toEqual(['start a1', 'start b1', 'start a2', 'start b2']);
    a2.finish();
    await flush();
    expect(rig.log.at(-1)).toBe('start a3');
    expect(rig.peakFor('a.example')).toBe(1);
    expect(rig.peakFor('b.example')).toBe(1);
  });

  it('counts jobs with no host only against the global cap', () => {
    const rig = setup({ maxInFlight: 3, perHostInFlight: 1 });
    const jobs = [rig.make('u1'), rig.make('u2'), rig.make('h1', 'h.example'), rig.make('u3')];
    for (const { job } of jobs) rig.dispatcher.submit(job);
    // No host is not one shared host: u1 and u2 both run though the per-host cap is 1.
    expect(rig.log).toEqual(['start u1', 'start u2', 'start h1']);
    expect(rig.dispatcher.inFlight).toBe(3);
    expect(rig.dispatcher.queued).toBe(1);
  });

  it('applies both caps: a free host slot does not exceed the global cap', async () => {
    const rig = setup({ maxInFlight: 2, perHostInFlight: 2 });
    const a1 = rig.make('a1', 'a.example');
    const b1 = rig.make('b1', 'b.example');
    const c1 = rig.make('c1', 'c.example');
    for (const { job } of [a1, b1, c1]) rig.dispatcher.submit(job);
    expect(rig.log).toEqual(['start a1', 'start b1']);
    b1.finish();
    await flush();
    expect(rig.log).toEqual(['start a1', 'start b1', 'start c1']);
    expect(rig.peak()).toBe(2);
  });
});

describe('Dispatcher: order', () => {
  it('starts jobs in submission order', async () => {
    const rig = setup({ maxInFlight: 1 });
    const jobs = ['first', 'second', 'third', 'fourth'].map((name) => rig.make(name));
    for (const { job } of jobs) rig.dispatcher.submit(job);
    for (const job of jobs) {
      job.finish();
      await flush();
    }
    expect(rig.log).toEqual(['start first', 'start second', 'start third', 'start fourth']);
  });

  it('keeps submission order among the jobs a host cap lets through', async () => {
    const rig = setup({ maxInFlight: 2, perHostInFlight: 1 });
    const a1 = rig.make('a1', 'a');
    const a2 = rig.make('a2', 'a');
    const b1 = rig.make('b1', 'b');
    const a3 = rig.make('a3', 'a');
    const b2 = rig.make('b2', 'b');
    for (const { job } of [a1, a2, b1, a3, b2]) rig.dispatcher.submit(job);
    expect(rig.log).toEqual(['start a1', 'start b1']);
    b1.finish();
    await flush();
    // b2 is the only job that may start (host a is full): it does not wait for a2 and a3.
    expect(rig.log).toEqual(['start a1', 'start b1', 'start b2']);
    a1.finish();
    await flush();
    // a2 before a3: both wanted host a, a2 was submitted first.
    expect(rig.log).toEqual(['start a1', 'start b1', 'start b2', 'start a2']);
  });
});

describe('Dispatcher: think window', () => {
  it('drops a queued job older than the window when the queue is next pumped, and never runs it', async () => {
    const rig = setup({ maxInFlight: 1, thinkWindowMs: 1_000 });
    const running = rig.make('running');
    const old = rig.make('old');
    const young = rig.make('young');
    rig.dispatcher.submit(running.job);
    const oldHandle = rig.dispatcher.submit(old.job);
    rig.advance(500);
    rig.dispatcher.submit(young.job);
    rig.advance(700); // old has waited 1,200 ms, young 700 ms

    // Nothing pumps the queue until a slot frees: the old job is still queued and not yet told.
    expect(old.drops).toBe(0);
    expect(rig.dispatcher.isQueued(oldHandle)).toBe(true);
    expect(rig.dispatcher.queued).toBe(2);

    running.finish();
    await flush();
    expect(rig.log).toEqual(['start running', 'drop old', 'start young']);
    expect([old.runs, old.drops]).toEqual([0, 1]);
    expect(rig.dispatcher.isQueued(oldHandle)).toBe(false);
    expect(oldHandle.cancel()).toBe(false);
    expect(rig.dispatcher.queued).toBe(0);
  });

  it('still starts a job that has waited exactly the window', async () => {
    const rig = setup({ maxInFlight: 1, thinkWindowMs: 1_000 });
    const running = rig.make('running');
    const edge = rig.make('edge');
    rig.dispatcher.submit(running.job);
    rig.dispatcher.submit(edge.job);
    rig.advance(1_000);
    running.finish();
    await flush();
    expect(rig.log).toEqual(['start running', 'start edge']);
    expect(edge.drops).toBe(0);
  });

  it('drops stale jobs on a submit too, even one whose host is full', () => {
    const rig = setup({ maxInFlight: 3, perHostInFlight: 1, thinkWindowMs: 1_000 });
    const a1 = rig.make('a1', 'a');
    const a2 = rig.make('a2', 'a');
    rig.dispatcher.submit(a1.job);
    rig.dispatcher.submit(a2.job);
    rig.advance(1_001);
    const b1 = rig.make('b1', 'b');
    rig.dispatcher.submit(b1.job);
    expect(rig.log).toEqual(['start a1', 'drop a2', 'start b1']);
    expect(rig.dispatcher.queued).toBe(0);
  });
});

describe('Dispatcher: cancel, isQueued and close', () => {
  it('cancels a queued job: true once, never run, never told', async () => {
    const rig = setup({ maxInFlight: 1 });
    const running = rig.make('running');
    const waiting = rig.make('waiting');
    const next = rig.make('next');
    const runningHandle = rig.dispatcher.submit(running.job);
    const waitingHandle = rig.dispatcher.submit(waiting.job);
    rig.dispatcher.submit(next.job);
    expect(rig.dispatcher.isQueued(runningHandle)).toBe(false);
    expect(rig.dispatcher.isQueued(waitingHandle)).toBe(true);

    expect(waitingHandle.cancel()).toBe(true);
    expect(waitingHandle.cancel()).toBe(false);
    expect(rig.dispatcher.isQueued(waitingHandle)).toBe(false);
    expect(rig.dispatcher.queued).toBe(1);

    running.finish();
    await flush();
    expect(rig.log).toEqual(['start running', 'start next']);
    expect([waiting.runs, waiting.drops]).toEqual([0, 0]);
  });

  it('refuses to cancel a job that has started, and it runs on', async () => {
    const rig = setup({ maxInFlight: 1 });
    const running = rig.make('running');
    const after = rig.make('after');
    const handle = rig.dispatcher.submit(running.job);
    rig.dispatcher.submit(after.job);
    expect(handle.cancel()).toBe(false);
    expect(rig.dispatcher.inFlight).toBe(1);
    // The slot is still held: the next job waits for the real end of the run.
    expect(after.runs).toBe(0);
    running.finish();
    await flush();
    expect(after.runs).toBe(1);
  });

  it('close() drops every queued job and lets running ones finish', async () => {
    const rig = setup({ maxInFlight: 1 });
    const running = rig.make('running');
    const q1 = rig.make('q1');
    const q2 = rig.make('q2');
    rig.dispatcher.submit(running.job);
    const h1 = rig.dispatcher.submit(q1.job);
    rig.dispatcher.submit(q2.job);
    rig.dispatcher.close();
    expect(rig.log).toEqual(['start running', 'drop q1', 'drop q2']);
    expect(rig.dispatcher.queued).toBe(0);
    expect(rig.dispatcher.inFlight).toBe(1);
    expect(rig.dispatcher.isQueued(h1)).toBe(false);
    expect(h1.cancel()).toBe(false);
    expect(running.drops).toBe(0);

    running.finish();
    await flush();
    expect(rig.dispatcher.inFlight).toBe(0);
    expect([q1.runs, q2.runs]).toEqual([0, 0]);
  });

  it('after close(), drops a new job at once without running it', () => {
    const rig = setup();
    rig.dispatcher.close();
    const late = rig.make('late');
    const handle = rig.dispatcher.submit(late.job);
    expect([late.runs, late.drops]).toEqual([0, 1]);
    expect(rig.dispatcher.isQueued(handle)).toBe(false);
    expect(handle.cancel()).toBe(false);
    expect(rig.dispatcher.queued).toBe(0);
  });
});

describe('Dispatcher: failing jobs free their slot', () => {
  it('frees the slot of a job whose run() rejects', async () => {
    const rig = setup({ maxInFlight: 1, perHostInFlight: 1 });
    const failing = rig.make('failing', 'a');
    const next = rig.make('next', 'a');
    rig.dispatcher.submit(failing.job);
    rig.dispatcher.submit(next.job);
    failing.fail();
    await flush();
    expect(rig.log).toEqual(['start failing', 'start next']);
    expect(rig.dispatcher.inFlight).toBe(1);
  });

  it('frees the global and host slots of a job whose run() throws synchronously', async () => {
    const rig = setup({ maxInFlight: 1, perHostInFlight: 1 });
    let throws = 0;
    const throwing: DispatchJob = {
      host: 'a',
      run: () => {
        throws += 1;
        throw new Error('sync throw');
      },
      drop: () => {
        throw new Error('a started job is never dropped');
      },
    };
    const next = rig.make('next', 'a');
    expect(() => rig.dispatcher.submit(throwing)).not.toThrow();
    rig.dispatcher.submit(next.job);
    expect(throws).toBe(1);
    await flush();
    expect(rig.log).toEqual(['start next']);
    expect(rig.dispatcher.inFlight).toBe(1);
    next.finish();
    await flush();
    expect(rig.dispatcher.inFlight).toBe(0);
    // And the host's count went back to zero: two more host-a jobs run one after the other.
    const x = rig.make('x', 'a');
    const y = rig.make('y', 'a');
    rig.dispatcher.submit(x.job);
    rig.dispatcher.submit(y.job);
    expect(rig.log).toEqual(['start next', 'start x']);
  });
});
