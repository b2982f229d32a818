// Compiles a grep pattern into a line test that runs in time linear in the line, whatever the pattern.
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { describeThrown, errors } from '../../contract/index.js';

export type LineTest = (line: string) => boolean;

/** What the pattern language is, for the tool's description and for every refusal. */
export const PATTERN_SYNTAX =
  'RE2 syntax, as ripgrep: no backreferences or lookaround, so every search runs in time linear in the text';

/**
 * RE2 alone, no V8 fast path for "safe" patterns: re2js is 2 to 17 times slower than RegExp per line, but a grep's
 * time goes to walking and reading files, and end to end over a source tree the two differ by less than the noise.
 */
export function compileLineTest(pattern: string, ignoreCase: boolean): LineTest {
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    throw errors.badPattern(pattern, whyRefused(error));
  }
  return (line) => re2.test(line);
}

/** RE2's own words, plus what is allowed; backreferences and lookaround get named, being what people reach for. */
function whyRefused(error: unknown): string {
  const said = describeThrown(error);
  const detail = said.replace(/^error parsing regexp: /, '');
  if (!(error instanceof RE2JSSyntaxException)) return detail;
  const unsupported =
    /invalid escape sequence: `\\[1-9]|unsupported Perl syntax|invalid named capture: `\(\?<[=!]/;
  return unsupported.test(said)
    ? `${detail}; backreferences and lookaround are not supported: grep takes ${PATTERN_SYNTAX}`
    : `${detail}; grep takes ${PATTERN_SYNTAX}`;
}
