import { describe, expect, test } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { ForesightError } from '../src/contract/index.js';

const FILE = '/proj/foresight.toml';

/** The error parseConfig throws for `text`. */
function failure(text: string): ForesightError {
  try {
    parseConfig(text, FILE, '/proj', {});
  } catch (error) {
    if (error instanceof ForesightError) return error;
    throw error;
  }
  throw new Error('expected parseConfig to fail');
}

/** 1-based line of the first line of `text` containing `fragment`. */
function lineOf(text: string, fragment: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(fragment));
  if (index < 0) throw new Error(`fragment not in text: ${fragment}`);
  return index + 1;
}

describe('unknown keys and bad values name the key, the file and its line', () => {
  test('unknown top-level key, with the allowed keys', () => {
    const text = '[server]\ntransport = "stdio"\n\n[plugin.gh]\nuse = "github"\n';
    const error = failure(text);
    expect(error.code).toBe('E_CONFIG_INVALID');
    expect(error.kind).toBe('invalid_input');
    expect(error.message).toBe(
      `${FILE}:4: plugin: unknown key "plugin" (did you mean "plugins"?); allowed: server, auth, plugins, enrich, format, planner, discovery, tools, audit, cluster`,
    );
  });

  test('unknown key in [server], with a suggestion', () => {
    const text = '# Foresight\n\n[server]\nlog_level = "warn"\ntrnasport = "http"\n';
    expect(failure(text).message).toBe(
      `${FILE}:5: server.trnasport: unknown key "trnasport" (did you mean "transport"?); ` +
        'allowed: transport, http, allowed_hosts, allowed_origins, auth_token_env, allow_unauthenticated, log_level, ' +
        'legacy_clients, request_state_key_env, request_state_ttl_s, task_after_ms, task_ttl_ms, task_poll_interval_ms, max_tasks, ' +
        'metrics, metrics_public, drain_timeout_s, limits',
    );
  });

  test('bad value of a plugin host key says what is allowed and what was given', () => {
    const text = '[plugins.workspace]\nroot = "."\n\n[plugins.gh]\nuse = "github"\ndeadline_ms = -5\n';
    expect(failure(text).message).toBe(
      `${FILE}:6: plugins.gh.deadline_ms: expected a whole number of milliseconds from 1 to 2147483647 (the timer limit, about 24.8 days), got -5`,
    );
  });

  test('bad isolation value lists the choices', () => {
    const text = '[plugins.gh]\nuse = "github"\nisolation = "process"\n';
    expect(failure(text).message).toBe(
      `${FILE}:3: plugins.gh.isolation: expected one of "inline", "worker", got "process"`,
    );
  });

  test('unknown key in deadlines_ms, also as an inline table', () => {
    const text = '[plugins.gh]\nuse = "github"\ndeadlines_ms = { call_tool = 100, list_tools = 5 }\n';
    expect(failure(text).message).toContain(
      `${FILE}:3: plugins.gh.deadlines_ms.list_tools: unknown key "list_tools"`,
    );
  });

  test('unknown key in [tools."x"]', () => {
    const text = [
      '[tools."gh__get_issues"]',
      'value_class = "critical"',
      '',
      '[tools."gh__get_issue"]',
      'typical_kb = 3',
      'latency_ms = 20',
    ].join('\n');
    const message = failure(text).message;
    expect(message).toContain(`${FILE}:6: tools.gh__get_issue.latency_ms: unknown key "latency_ms"`);
    expect(message).toContain('allowed: value_class, side_effect, typical_kb, latency_ms_p50');
  });

  test('bad value inside a follow_up array element points at that element', () => {
    const text = [
      '[tools.gh__get_issues]',
      'follow_up = [',
      '  { tool = "gh__get_issue_comments", probability = 0.5 },',
      '  { tool = "gh__get_pull", probability = 2 },',
      ']',
    ].join('\n');
    expect(failure(text).message).toBe(
      `${FILE}:4: tools.gh__get_issues.follow_up[1].probability: expected a number from 0 to 1, got 2`,
    );
  });

  test('a missing required key points at its table header', () => {
    const text = '[[enrich]]\ntools = ["a__*"]\n\n[[enrich]]\nhide = ["x"]\n';
    expect(failure(text).message).toBe(
      `${FILE}:4: enrich[1].tools: required but missing; expected an array of tool-name globs such as ["gh__*"]`,
    );
  });

  test('unknown planner key', () => {
    const text = '[planner]\nenabled = true\nbudget = 3\n';
    expect(failure(text).message).toBe(
      `${FILE}:3: planner.budget: unknown key "budget"; allowed: enabled, probability_floor, max_waste_per_hit, token_budget, max_in_flight, max_parallel_prefetches, per_host_in_flight, default_ttl_s, think_window_s, default_followup_probability, learning, state_file`,
    );
  });

  test('several problems: one line each, in file order, counted', () => {
    const text = [
      '[server]',
      'transport = "smoke"',
      '',
      '[plugins.gh]',
      'deadline_ms = 1.5',
      '',
      '[planner]',
      'enabled = "yes"',
      'colour = "blue"',
    ].join('\n');
    const message = failure(text).message;
    expect(message.split('\n')).toEqual([
      `${FILE}: 4 problems:`,
      `  ${FILE}:${lineOf(text, 'transport')}: server.transport: expected one of "stdio", "http", got "smoke"`,
      `  ${FILE}:${lineOf(text, 'deadline_ms')}: plugins.gh.deadline_ms: expected a whole number of milliseconds from 1 to 2147483647 (the timer limit, about 24.8 days), got 1.5`,
      `  ${FILE}:${lineOf(text, 'enabled')}: planner.enabled: expected true or false, got "yes"`,
      `  ${FILE}:${lineOf(text, 'colour')}: planner.colour: unknown key "colour"; allowed: enabled, probability_floor, max_waste_per_hit, token_budget, max_in_flight, max_parallel_prefetches, per_host_in_flight, default_ttl_s, think_window_s, default_followup_probability, learning, state_file`,
    ]);
  });

  test('keys in dotted form are located too', () => {
    const text = 'server.transport = "stdio"\nserver.log_level = "chatty"\n';
    expect(failure(text).message).toBe(
      `${FILE}:2: server.log_level: expected one of "trace", "debug", "info", "warn", "error", "fatal", "silent", got "chatty"`,
    );
  });
});

describe('plugin tables', () => {
  test('use and module together are a conflict at the module line', () => {
    const text = '[plugins.demo]\nuse = "github"\nmodule = "./demo.mjs"\n';
    expect(failure(text).message).toBe(
      `${FILE}:3: plugins.demo.module: "use" and "module" are mutually exclusive: ` +
        'set use = "<built-in kind>" or module = "<path>", not both',
    );
  });

  test.each(['GitHub', 'gh__two', '9lives', 'a'.repeat(33)])(
    'bad instance name %s names the rule',
    (name) => {
      const text = `[plugins.workspace]\nroot = "."\n\n[plugins.${name}]\nuse = "github"\n`;
      expect(failure(text).message).toBe(
        `${FILE}:4: plugins.${name}: plugin instance name "${name}" must match ^[a-z][a-z0-9_]{0,31}$ without "__"`,
      );
    },
  );

  test('bad prefix and kind', () => {
    const text = '[plugins.gh]\nuse = "Git Hub"\nprefix = "a__b"\n';
    const message = failure(text).message;
    expect(message).toContain(`${FILE}:2: plugins.gh.use: expected a built-in plugin kind matching`);
    expect(message).toContain(`${FILE}:3: plugins.gh.prefix: expected "" (no prefix) or a prefix matching`);
  });

  test('a plugin table that is not a table', () => {
    expect(failure('plugins.gh = 5\n').message).toBe(`${FILE}:1: plugins.gh: expected a table, got 5`);
  });

  test('unknown non-host keys are kept as options, not errors', () => {
    const config = parseConfig('[plugins.gh]\nuse = "github"\ndeadline = 5\n', FILE, '/proj', {});
    expect(config.plugins[0]?.options).toEqual({ deadline: 5 });
  });
});

describe('TOML syntax errors', () => {
  test('name the file and the line', () => {
    const text = '[server]\ntransport = "stdio"\nhttp = \n';
    const error = failure(text);
    expect(error.code).toBe('E_CONFIG_SYNTAX');
    expect(error.message).toMatch(new RegExp(`^${FILE}:3: invalid TOML: .+ \\(column \\d+\\)$`));
  });

  test('an unterminated string on line 5', () => {
    const text = '[server]\ntransport = "stdio"\n\n[plugins.gh]\nrepo = "octo\n';
    expect(failure(text).message).toMatch(new RegExp(`^${FILE}:5: invalid TOML: `));
  });

  test('a key defined twice', () => {
    const text = '[planner]\nenabled = true\nenabled = false\n';
    expect(failure(text).message).toMatch(new RegExp(`^${FILE}:3: invalid TOML: `));
  });

  test('__proto__ keys are refused', () => {
    expect(failure('[plugins.gh]\n__proto__ = 1\n').code).toBe('E_CONFIG_SYNTAX');
  });
});

describe('[format]', () => {
  test('a budget that is not a positive whole number, and an unknown format', () => {
    const message = failure('[format]\nbudget_tokens = 0\ndefault = "html"\n').message;
    expect(message).toContain(
      `${FILE}:2: format.budget_tokens: expected a positive whole number of tokens, got 0`,
    );
    expect(message).toContain(
      `${FILE}:3: format.default: expected one of "markdown", "compact", "json", "toon", got "html"`,
    );
  });
});

describe('[planner] and [tools."*"]', () => {
  test('planner settings out of range name the key and what is allowed', () => {
    const message = failure('[planner]\nprobability_floor = 1.5\nmax_in_flight = 0\n').message;
    expect(message).toContain(`${FILE}:2: planner.probability_floor: expected a number from 0 to 1, got 1.5`);
    expect(message).toContain(`${FILE}:3: planner.max_in_flight: expected a positive integer, got 0`);
  });

  test('max_waste_per_hit takes a number >= 0 or inf, and says so', () => {
    for (const bad of ['-1', '"lots"', 'nan']) {
      expect(failure(`[planner]\nmax_waste_per_hit = ${bad}\n`).message).toContain(
        `${FILE}:2: planner.max_waste_per_hit: expected a number >= 0, or inf for no budget, got `,
      );
    }
  });

  test('learning and state_file have their types, named with the line', () => {
    const message = failure('[planner]\nlearning = "yes"\nstate_file = ""\n').message;
    expect(message).toContain(`${FILE}:2: planner.learning: expected true or false, got "yes"`);
    expect(message).toContain(`${FILE}:3: planner.state_file: expected a file path, got ""`);
    expect(failure('[planner]\nstate_file = 3\n').message).toBe(
      `${FILE}:2: planner.state_file: expected a file path, got 3`,
    );
  });

  test('a [tools] block names a published tool or "*"', () => {
    expect(failure('[tools."has space"]\nspeculate = false\n').message).toBe(
      `${FILE}:1: tools."has space": tool name "has space" is not a published tool name (^[A-Za-z0-9_-]{1,64}$) or "*"`,
    );
  });
});

describe('tool rules: drop, name, tools.allow and tools.deny', () => {
  test('drop takes true or false', () => {
    const text = '[[enrich]]\ntools = ["fs__write_file"]\ndrop = "yes"\n';
    expect(failure(text).message).toBe(`${FILE}:3: enrich[0].drop: expected true or false, got "yes"`);
  });

  test('name renames one tool: a glob or several names are refused, saying what is allowed', () => {
    const text = '[[enrich]]\ntools = ["fs__read_*"]\nname = "read"\n';
    expect(failure(text).message).toBe(
      `${FILE}:3: enrich[0].name: name renames one tool: tools must hold exactly one tool name without glob characters, got ["fs__read_*"]`,
    );
    const several = '[[enrich]]\ntools = ["fs__a", "fs__b"]\nname = "read"\n';
    expect(failure(several).message).toContain('got ["fs__a","fs__b"]');
  });

  test('name is a tool name that clients accept', () => {
    const text = '[[enrich]]\ntools = ["fs__read_text_file"]\nname = "read file"\n';
    expect(failure(text).message).toBe(
      `${FILE}:3: enrich[0].name: expected a tool name (^[A-Za-z0-9_-]{1,64}$), published behind the plugin's prefix, got "read file"`,
    );
  });

  test('a dropped tool takes no other rule', () => {
    const text = '[[enrich]]\ntools = ["fs__*"]\ndrop = true\nhide = ["x"]\nname = "y"\n';
    const message = failure(text).message;
    expect(message).toContain(
      `${FILE}:4: enrich[0].hide: a dropped tool is not published, so hide would act on nothing; put it in a block without drop`,
    );
    expect(message).toContain(
      `${FILE}:5: enrich[0].name: a dropped tool is not published, so it cannot be renamed`,
    );
  });

  test('tools.allow and tools.deny are lists of globs, and the tools table has only those keys', () => {
    const text = [
      '[plugins.fs]',
      'use = "upstream"',
      'command = ["x"]',
      'tools.deny = "write_*"',
      'tools.allow = []',
      'tools.hide = ["a"]',
    ].join('\n');
    expect(failure(text).message.split('\n')).toEqual([
      `${FILE}: 3 problems:`,
      `  ${FILE}:4: plugins.fs.tools.deny: expected an array of globs over the plugin's own tool names such as ["write_*"], got "write_*"`,
      `  ${FILE}:5: plugins.fs.tools.allow: expected at least one glob (to publish none of its tools, set enabled = false), got an empty array`,
      `  ${FILE}:6: plugins.fs.tools.hide: unknown key "hide"; allowed: allow, deny`,
    ]);
  });
});
