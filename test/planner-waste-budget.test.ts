// The waste budget: which calls may run ahead, how real outcomes replace expectations, and that the
// unused results it lets through stay within the budget per used one over a long run.
import { describe, expect, it } from 'vitest';
import { type BudgetTicket, ResultCache, WasteBudget, type WasteBudgetChange } from '../src/planner/index.js';
import { failed, ok, parts, setup } from './support/planner-fixtures.js';
import { seededRandom } from './support/random.js';

describe('WasteBudget: admission', () => {
  it('from nothing, admits a call only when it is at least as likely used as not (budget 1)', () => {
    expect(new WasteBudget(1).admit(0.49)).toBeUndefined();
    expect(new WasteBudget(1).admit(0.5)).toBeDefined();
    expect(new WasteBudget(1).admit(0.9)).toBeDefined();
  });

  it('scales with the budget: 3 unused per used admits a first call of p 0.25, not 0.2', () => {
    expect(new WasteBudget(3).admit(0.25)).toBeDefined();
    expect(new WasteBudget(3).admit(0.2)).toBeUndefined();
  });

  it('lets likely calls make room for an unlikely one', () => {
    const budget = new WasteBudget(1);
    expect(budget.admit(0.3)).toBeUndefined();
    expect(budget.admit(0.9)).toBeDefined();
    expect(budget.admit(0.9)).toBeDefined();
    // About 1.8 expected hits and 0.2 waste: each 0.3 adds 0.3 and 0.7, so the room lasts three of them.
    const unlikely = Array.from({ length: 5 }, () => budget.admit(0.3) !== undefined);
    expect(unlikely).toEqual([true, true, true, false, false]);
  });

  it('admits everything with no budget, and only certain calls with a budget of 0', () => {
    const none = new WasteBudget(Infinity);
    expect([0, 0.01, 0.5].map((p) => none.admit(p) !== undefined)).toEqual([true, true, true]);
    const strict = new WasteBudget(0);
    expect(strict.admit(0.99)).toBeUndefined();
    expect(strict.admit(1)).toBeDefined();
  });

  it('refuses a budget that is negative or not a number', () => {
    expect(() => new WasteBudget(-1)).toThrow('maxWastePerHit must be a number >= 0, got -1');
    expect(() => new WasteBudget(Number.NaN)).toThrow('got NaN');
  });
});

describe('WasteBudget: outcomes', () => {
  it('a used call counts as a whole hit, which makes room an expectation did not', () => {
    const expecting = new WasteBudget(1);
    expecting.admit(0.5);
    expect(expecting.state).toMatchObject({ hits: 0.5, waste: 0.5 });
    expect(expecting.admit(0.3)).toBeUndefined();

    const budget = new WasteBudget(1);
    budget.admit(0.5)?.settle('used');
    expect(budget.state).toMatchObject({ hits: 1, waste: 0 });
    expect(budget.admit(0.3)).toBeDefined();
  });

  it('an unused call counts as a whole waste, and closes the room', () => {
    const budget = new WasteBudget(1);
    budget.admit(0.9)?.settle('unused');
    expect(budget.state).toMatchObject({ hits: 0, waste: 1 });
    expect(budget.admit(0.9)).toBeUndefined();
  });

  it('a withdrawn call (it never ran) leaves no trace, and only the first outcome counts', () => {
    const budget = new WasteBudget(1);
    const ticket = budget.admit(0.6);
    ticket?.settle('withdrawn');
    ticket?.settle('used');
    ticket?.settle('unused');
    expect(budget.state.hits).toBeCloseTo(0, 12);
    expect(budget.state.waste).toBeCloseTo(0, 12);
  });

  it('keeps the unused results within the budget per used one over a long run of uneven guesses', () => {
    for (const seed of [1, 2, 3]) {
      const random = seededRandom(seed);
      const budget = new WasteBudget(1);
      let used = 0;
      let unused = 0;
      let unlikelyAdmitted = 0;
      for (let call = 0; call < 20_000; call += 1) {
        // Mostly poor guesses (p 0.1–0.4), some good ones (p 0.6–0.95), each right as often as it says.
        const p = random() < 0.7 ? 0.1 + random() * 0.3 : 0.6 + random() * 0.35;
        const ticket = budget.admit(p);
        if (!ticket) continue;
        if (p < 0.5) unlikelyAdmitted += 1;
        const isUsed = random() < p;
        ticket.settle(isUsed ? 'used' : 'unused');
        if (isUsed) used += 1;
        else unused += 1;
      }
      expect(unused / used).toBeLessThanOrEqual(1.02);
      // Not a plain cut at p 0.5: the room the good guesses leave is spent on poor ones.
      expect(unlikelyAdmitted).toBeGreaterThan(1000);
    }
  });

  it('corrects guesses that run low: calls said to be 40% likely but always used keep getting in', () => {
    const budget = new WasteBudget(1);
    budget.admit(0.9)?.settle('used');
    let admitted = 0;
    for (let call = 0; call < 100; call += 1) {
      const ticket = budget.admit(0.4);
      if (ticket) admitted += 1;
      ticket?.settle('used');
    }
    expect(admitted).toBe(100);
  });
});

describe('WasteBudget: one account kept by several processes', () => {
  it('tells each decision, admitted or refused, and each outcome as the change it made', () => {
    const changes: WasteBudgetChange[] = [];
    const budget = new WasteBudget(1, (change) => changes.push(change));
    const ticket = budget.admit(0.8);
    expect(budget.admit(0.1)).toBeUndefined();
    ticket?.settle('used');
    ticket?.settle('unused');
    expect(changes).toEqual([
      { decisions: 1, hits: 0.8, waste: expect.closeTo(0.2, 12) },
      { decisions: 1, hits: 0, waste: 0 },
      { decisions: 0, hits: expect.closeTo(0.2, 12), waste: expect.closeTo(-0.2, 12) },
    ]);
  });

  it('split over three accounts that hear each other, decides and counts as one account would', () => {
    for (const seed of [1, 2, 3]) {
      const random = seededRandom(seed);
      const one = new WasteBudget(1);
      const members: WasteBudget[] = [];
      for (let i = 0; i < 3; i += 1)
        members.push(
          new WasteBudget(1, (change) => {
            for (const other of members) if (other !== members[i]) other.absorb(change);
          }),
        );
      const open: { alone: BudgetTicket; shared: BudgetTicket; used: boolean }[] = [];
      for (let call = 0; call < 3_000; call += 1) {
        const p = random();
        // Each call is decided on the process the agent's call landed on; its outcome comes some calls later.
        const member = members[call % 3] as WasteBudget;
        const alone = one.admit(p);
        const shared = member.admit(p);
        expect(shared !== undefined).toBe(alone !== undefined);
        if (alone && shared) open.push({ alone, shared, used: random() < p });
        if (open.length > 4 || random() < 0.3) {
          const settled = open.splice(Math.floor(random() * open.length), 1)[0];
          settled?.alone.settle(settled.used ? 'used' : 'unused');
          settled?.shared.settle(settled.used ? 'used' : 'unused');
        }
      }
      for (const member of members) {
        expect(member.state.hits).toBeCloseTo(one.state.hits, 6);
        expect(member.state.waste).toBeCloseTo(one.state.waste, 6);
      }
    }
  });

  it('an empty account admits the unlikely call once it has heard another process’s used results', () => {
    const busy = new WasteBudget(1);
    const fresh = new WasteBudget(1);
    const heard = new WasteBudget(1);
    const told = new WasteBudget(1, (change) => heard.absorb(change));
    for (const account of [busy, told]) {
      account.admit(0.9)?.settle('used');
      account.admit(0.9)?.settle('used');
    }
    expect(busy.admit(0.3)).toBeDefined();
    expect(fresh.admit(0.3)).toBeUndefined();
    expect(heard.admit(0.3)).toBeDefined();
  });
});

describe('ResultCache: the outcome of a speculative call', () => {
  it('is "used" once when its stored result is served, however often', () => {
    const { cache } = setup();
    const heard: boolean[] = [];
    cache.begin(parts('ws__read', { p: 1 }), (used) => heard.push(used)).settle(ok('x'), 30);
    expect(heard).toEqual([]);
    cache.get(parts('ws__read', { p: 1 }));
    cache.get(parts('ws__read', { p: 1 }));
    expect(heard).toEqual([true]);
  });

  it('is "used" when the agent joined it in flight', () => {
    const { cache } = setup();
    const heard: boolean[] = [];
    const flight = cache.begin(parts('ws__read'), (used) => heard.push(used));
    expect(cache.inFlight(parts('ws__read'))).toBeDefined();
    flight.settle(ok('x'), 30);
    expect(heard).toEqual([true]);
  });

  it('is "unused" when it failed, went stale, expired, or was pushed out unserved', () => {
    const { cache, advance } = setup({ maxBytes: 200 });
    const heard: string[] = [];
    const listen = (name: string) => (used: boolean) => heard.push(`${name} ${used}`);
    cache.begin(parts('ws__read', { p: 'failed' }), listen('failed')).settle(failed(), 30);
    const stale = cache.begin(parts('ws__read', { p: 'stale' }), listen('stale'));
    cache.invalidate(['ws__read']);
    stale.settle(ok('late'), 30);
    cache.begin(parts('ws__read', { p: 'expired' }), listen('expired')).settle(ok('x'), 1);
    advance(1000);
    expect(cache.get(parts('ws__read', { p: 'expired' }))).toBeUndefined();
    cache.begin(parts('ws__read', { p: 'old' }), listen('old')).settle(ok('a'.repeat(90)), 30);
    cache.begin(parts('ws__read', { p: 'new' }), listen('new')).settle(ok('b'.repeat(90)), 30);
    expect(heard).toEqual(['failed false', 'stale false', 'expired false', 'old false']);
  });

  it('is not told anything for a plain put', () => {
    const cache = new ResultCache();
    expect(cache.put(parts('ws__read'), ok('x'), 30)).toBe(true);
    expect(cache.get(parts('ws__read'))).toBeDefined();
  });
});
