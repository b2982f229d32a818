// The [planner] and [tools."…"] keys as the seeds write them: links without a probability take
// default_followup_probability, max_parallel_prefetches names the in-flight cap, and tables read from a
// devboy-tools file (--planner-config) lie beneath the file's own keys.
import { describe, expect, it } from 'vitest';
import { type BeneathTables, type ForesightConfig, parseConfig } from '../src/config/index.js';

const FILE = '/proj/foresight.toml';
const parse = (text: string, beneath?: BeneathTables): ForesightConfig =>
  parseConfig(text, FILE, '/proj', {}, beneath === undefined ? {} : { beneath });
const failure = (text: string): Error => {
  try {
    parse(text);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the config to be refused');
};

const SEED_LINK =
  '[tools."workspace__glob"]\nfollow_up = [{ tool = "workspace__read_file", projection = "match_path", projection_arg = "path" }]\n';

describe('follow-up links without a probability', () => {
  it('take 0.5 by default', () => {
    expect(parse(SEED_LINK).tools.workspace__glob?.followUp).toEqual([
      { tool: 'workspace__read_file', probability: 0.5, projection: 'match_path', projectionArg: 'path' },
    ]);
  });

  it('take [planner] default_followup_probability, and a link that gives one keeps it', () => {
    const config = parse(
      `[planner]\ndefault_followup_probability = 0.4\n\n${SEED_LINK}\n[tools."workspace__grep"]\nfollow_up = [{ tool = "workspace__read_file", probability = 0.7 }]\n`,
    );
    expect(config.planner.defaultFollowupProbability).toBe(0.4);
    expect(config.tools.workspace__glob?.followUp?.[0]?.probability).toBe(0.4);
    expect(config.tools.workspace__grep?.followUp).toEqual([
      { tool: 'workspace__read_file', probability: 0.7 },
    ]);
  });

  it('default_followup_probability is a number from 0 to 1, named with its line', () => {
    expect(failure('[planner]\n\ndefault_followup_probability = 2\n').message).toContain(
      `${FILE}:3: planner.default_followup_probability: expected a number from 0 to 1, got 2`,
    );
  });
});

describe('max_parallel_prefetches', () => {
  it('is the in-flight cap under another name', () => {
    expect(parse('[planner]\nmax_parallel_prefetches = 3\n').planner.maxInFlight).toBe(3);
    expect(parse('[planner]\nmax_in_flight = 5\nmax_parallel_prefetches = 5\n').planner.maxInFlight).toBe(5);
    expect(parse('').planner.maxInFlight).toBe(4);
  });

  it('refuses two different values for the one cap, at the alias line', () => {
    expect(failure('[planner]\nmax_in_flight = 4\nmax_parallel_prefetches = 2\n').message).toContain(
      `${FILE}:3: planner.max_parallel_prefetches: is another name for max_in_flight, which says 4: set one of them`,
    );
  });
});

describe('tables beneath the file (--planner-config)', () => {
  const beneath: BeneathTables = {
    planner: { enabled: true, max_parallel_prefetches: 2, token_budget: 8000 },
    tools: {
      workspace__grep: { side_effect: 'read_only', typical_kb: 1 },
      workspace__glob: { typical_kb: 2, follow_up: [{ tool: 'workspace__list_directory' }] },
    },
  };

  it('fill in what the file leaves out; the file wins key by key', () => {
    const config = parse(`[planner]\ntoken_budget = 3000\n\n${SEED_LINK}`, beneath);
    expect(config.planner).toMatchObject({ enabled: true, maxInFlight: 2, tokenBudget: 3000 });
    expect(config.tools.workspace__grep).toEqual({ sideEffect: 'read_only', typicalKb: 1 });
    expect(config.tools.workspace__glob).toEqual({
      typicalKb: 2,
      followUp: [
        { tool: 'workspace__read_file', probability: 0.5, projection: 'match_path', projectionArg: 'path' },
      ],
    });
  });

  it('max_in_flight in the file hides max_parallel_prefetches beneath it', () => {
    expect(parse('[planner]\nmax_in_flight = 6\n', beneath).planner.maxInFlight).toBe(6);
  });
});

describe('devboy-tools keys written in foresight.toml', () => {
  it('are refused with what says the same here, and the import that maps such a file', () => {
    const message = failure(
      '[tools."workspace__glob"]\nside_effect_class = "read_only"\n\n[tools."workspace__glob".cost_model]\ntypical_kb = 1\n',
    ).message;
    expect(message).toContain(
      `${FILE}:2: tools.workspace__glob.side_effect_class: unknown key "side_effect_class" (a devboy-tools pipeline config key: it is side_effect here; \`foresight import-devboy FILE\` maps such a file); allowed: `,
    );
    expect(message).toContain(
      `${FILE}:4: tools.workspace__glob.cost_model: unknown key "cost_model" (a devboy-tools`,
    );
  });
});
