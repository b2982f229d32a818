import { parse } from 'smol-toml';
import { describe, expect, test } from 'vitest';
import { lineOfKeyPath } from '../src/config/key-path.js';
import { locateKeys } from '../src/config/locate.js';

const SOURCE = `# comment with [brackets] and key = "value"
title = "a # not a comment"
server.transport = "stdio"   # dotted key at the top

[ plugins . "my.gh" ]
use = 'github'
notes = """
  [not.a.header]
  fake = 1
  """
literal = '''
[[nor.this]]'''
nested = { a = { b = 1 }, c = [1, 2] }

[[enrich]]
tools = [
  "a__*",   # first
  "b__*",
]

[[enrich]]
tools = ["c__*"]

[enrich.annotations]
title = "x"

[tools."gh__get_issues"]
follow_up = [
  { tool = "x", probability = 0.5 },
  { tool = "y",
    probability = 0.2 },
]
"quoted key \\u0041" = 1
`;

describe('locateKeys', () => {
  const lines = locateKeys(SOURCE);
  const at = (...path: (string | number)[]) => lineOfKeyPath(lines, path);

  test('the sample is valid TOML', () => {
    expect(() => parse(SOURCE)).not.toThrow();
  });

  test('top-level and dotted keys', () => {
    expect(at('title')).toBe(2);
    expect(at('server')).toBe(3);
    expect(at('server', 'transport')).toBe(3);
  });

  test('headers with spaces and quoted parts; comments and strings are not headers', () => {
    expect(at('plugins', 'my.gh')).toBe(5);
    expect(at('plugins', 'my.gh', 'use')).toBe(6);
    expect(at('plugins', 'my.gh', 'literal')).toBe(11);
    expect(at('not')).toBeUndefined();
    expect(at('nor')).toBeUndefined();
    expect(at('fake')).toBeUndefined();
  });

  test('inline tables and arrays', () => {
    expect(at('plugins', 'my.gh', 'nested', 'a', 'b')).toBe(13);
    expect(at('plugins', 'my.gh', 'nested', 'c', 1)).toBe(13);
  });

  test('arrays of tables count their elements; a sub-table belongs to the last one', () => {
    expect(at('enrich', 0)).toBe(15);
    expect(at('enrich', 0, 'tools', 1)).toBe(18);
    expect(at('enrich', 1)).toBe(21);
    expect(at('enrich', 1, 'annotations', 'title')).toBe(25);
  });

  test('multi-line arrays of inline tables', () => {
    expect(at('tools', 'gh__get_issues', 'follow_up', 0, 'probability')).toBe(29);
    expect(at('tools', 'gh__get_issues', 'follow_up', 1)).toBe(30);
    expect(at('tools', 'gh__get_issues', 'follow_up', 1, 'probability')).toBe(31);
    expect(at('tools', 'gh__get_issues', 'quoted key A')).toBe(33);
  });

  test('falls back to the nearest located ancestor', () => {
    expect(at('enrich', 1, 'pin', 'x')).toBe(21);
    expect(at('missing', 'entirely')).toBeUndefined();
  });

  test('CRLF line ends and a byte-order mark', () => {
    const crlf = locateKeys('\uFEFF[server]\r\ntransport = "stdio"\r\n\r\n[planner]\r\nenabled = true\r\n');
    expect(lineOfKeyPath(crlf, ['server', 'transport'])).toBe(2);
    expect(lineOfKeyPath(crlf, ['planner', 'enabled'])).toBe(5);
  });

  test('keys named like Object.prototype members are only the file\u2019s own', () => {
    expect(lineOfKeyPath(locateKeys('a = 1\n'), ['constructor'])).toBeUndefined();
    expect(lineOfKeyPath(locateKeys('[x]\nconstructor = 1\n'), ['x', 'constructor'])).toBe(2);
  });

  test('garbage never throws or hangs', () => {
    for (const text of [
      '[',
      '[[',
      'a',
      '= =',
      '{',
      'a = [',
      'a = {',
      'a = """',
      "a = '''",
      'a = "\\',
      '[a.]',
      'a.=1',
    ]) {
      expect(() => locateKeys(text)).not.toThrow();
    }
  });
});
