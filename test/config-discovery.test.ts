import { describe, expect, test } from 'vitest';
import { defaultConfig, parseConfig } from '../src/config/index.js';
import { ForesightError } from '../src/contract/index.js';
// The discovery area is reached by file path until its index joins the other helpers' parts.
import { discoveryLine, fullListTokens, resolveDiscoveryMode } from '../src/discovery/mode.js';

const FILE = '/proj/foresight.toml';
const PLUGIN = '[plugins.workspace]\nroot = "."\n\n';

const parsed = (discovery: string) => parseConfig(`${PLUGIN}[discovery]\n${discovery}`, FILE, '/proj', {});

/** The message parseConfig throws for the [discovery] table `discovery`. */
function failure(discovery: string): string {
  try {
    parsed(discovery);
  } catch (error) {
    if (error instanceof ForesightError) return error.message;
    throw error;
  }
  throw new Error('expected parseConfig to fail');
}

describe('[discovery]', () => {
  test('a file without the table: auto, 8000 tokens, nothing always loaded', () => {
    const config = parseConfig(PLUGIN, FILE, '/proj', {});
    expect(config.discovery).toEqual({ mode: 'auto', autoTokens: 8000, alwaysLoad: [] });
  });

  test('the embedded default lists every tool', () => {
    expect(defaultConfig('/proj').discovery).toEqual({ mode: 'all', autoTokens: 8000, alwaysLoad: [] });
  });

  test('every key, camelCase once parsed', () => {
    const config = parsed(
      'mode = "search"\nauto_tokens = 0\nalways_load = ["gh__get_*", "ws__read", "jr__{get,list}_issue"]\n',
    );
    expect(config.discovery).toEqual({
      mode: 'search',
      autoTokens: 0,
      alwaysLoad: ['gh__get_*', 'ws__read', 'jr__{get,list}_issue'],
    });
    expect(parsed('mode = "all"\n').discovery.mode).toBe('all');
  });

  test('each bad value names the key, its line and what is allowed', () => {
    expect(failure('mode = "lazy"\n')).toBe(
      `${FILE}:5: discovery.mode: expected one of "all", "search", "auto", got "lazy"`,
    );
    expect(failure('auto_tokens = -1\n')).toBe(
      `${FILE}:5: discovery.auto_tokens: expected an integer from 0 to 10000000, got -1`,
    );
    expect(failure('auto_tokens = 1.5\n')).toMatch(
      /^.*:5: discovery\.auto_tokens: expected an integer from 0 to 10000000/,
    );
    expect(failure('always_load = "gh__*"\n')).toMatch(
      /:5: discovery\.always_load: expected an array of tool-name globs such as \["gh__\*"\]/,
    );
  });

  test('a glob picomatch cannot read as written, or one that negates, is refused naming it', () => {
    expect(failure('always_load = ["gh__[get"]\n')).toMatch(
      /:5: discovery\.always_load\[0\]: expected a glob over published tool names such as "gh__\*": Missing closing: "\]"/,
    );
    expect(failure('always_load = ["ok", "{a,b"]\n')).toMatch(
      /discovery\.always_load\[1\]: .*Missing closing: "\}"/,
    );
    expect(failure('always_load = ["!gh__*"]\n')).toMatch(
      /discovery\.always_load\[0\]: .*"!" negation is not allowed/,
    );
    expect(failure('always_load = ["gh get"]\n')).toMatch(/discovery\.always_load\[0\]: .*no whitespace/);
    expect(failure('always_load = [""]\n')).toMatch(/discovery\.always_load\[0\]: .*empty/);
    expect(failure('always_load = [3]\n')).toMatch(
      /discovery\.always_load\[0\]: expected a glob over published tool names/,
    );
  });

  test('an unknown key is refused with the allowed ones', () => {
    expect(failure('auto_token = 100\n')).toBe(
      `${FILE}:5: discovery.auto_token: unknown key "auto_token" (did you mean "auto_tokens"?); allowed: mode, auto_tokens, always_load`,
    );
  });
});

describe('the discovery mode in force', () => {
  test('auto searches only when the full list costs more than auto_tokens', () => {
    expect(resolveDiscoveryMode({ mode: 'auto', autoTokens: 8000 }, 14_810)).toEqual({
      mode: 'search',
      why: 'auto → search (full tools/list 14,810 tokens > auto_tokens 8,000)',
    });
    expect(resolveDiscoveryMode({ mode: 'auto', autoTokens: 8000 }, 8000).mode).toBe('all');
    expect(resolveDiscoveryMode({ mode: 'auto', autoTokens: 0 }, 1).mode).toBe('search');
  });

  test('a set mode holds whatever the list costs, and still says the cost', () => {
    expect(resolveDiscoveryMode({ mode: 'all', autoTokens: 10 }, 101_927)).toEqual({
      mode: 'all',
      why: 'all (set; full tools/list 101,927 tokens)',
    });
    expect(resolveDiscoveryMode({ mode: 'search', autoTokens: 1e6 }, 12).mode).toBe('search');
  });

  test('the full list is counted as its JSON in o200k tokens', () => {
    const tool = { name: 'ws__read', description: 'Read a file.', inputSchema: { type: 'object' as const } };
    const one = fullListTokens([tool]);
    expect(one).toBeGreaterThan(10);
    // Each further tool adds its own tokens: the count grows with the list.
    expect(fullListTokens([tool, { ...tool, name: 'ws__write' }])).toBeGreaterThan(one + 10);
    expect(fullListTokens([])).toBeGreaterThan(0);
    expect(discoveryLine({ mode: 'all', autoTokens: 8000, alwaysLoad: [] }, [tool])).toBe(
      `discovery: all (set; full tools/list ${one} tokens)`,
    );
  });
});
