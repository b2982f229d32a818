// Keys in every form people write them, and the one canonical form the planner's cache compares.
import { describe, expect, it } from 'vitest';
import { canonicalizeKey } from '../src/plugins/kit/index.js';

function canonical(tool: string, key: unknown, sigil: '#' | '!' = '!'): unknown {
  const args: Record<string, unknown> = { key, body: 'x' };
  canonicalizeKey(tool, args, sigil);
  return args.key;
}

describe('canonicalizeKey', () => {
  it.each([45, '45', ' 45 ', '#45', '!45', 'https://gitlab.example/g/p/-/merge_requests/45'])(
    'writes the merge-request key %j as "!45" for GitLab and "#45" for GitHub',
    (key) => {
      expect(canonical('get_merge_request_discussions', key, '!')).toBe('!45');
      expect(canonical('create_merge_request_comment', key, '#')).toBe('#45');
    },
  );

  it.each([12, '12', '#12', 'https://github.com/o/r/issues/12'])(
    'writes the issue key %j as "#12"',
    (key) => {
      expect(canonical('get_issue', key)).toBe('#12');
      expect(canonical('add_issue_comment', key)).toBe('#12');
    },
  );

  it('leaves a key that does not parse for the tool to refuse, and tools without a key alone', () => {
    expect(canonical('get_issue', '!12')).toBe('!12');
    expect(canonical('get_issue', 'PROJ-1')).toBe('PROJ-1');
    expect(canonical('get_merge_request', 0)).toBe(0);
    expect(canonical('get_issues', 12)).toBe(12);
    expect(canonical('some_other_tool', 12)).toBe(12);
    const args: Record<string, unknown> = { state: 'open' };
    canonicalizeKey('get_issue', args, '#');
    expect(args).toEqual({ state: 'open' });
  });

  it('touches only key, not target_key (which may name another project)', () => {
    const args: Record<string, unknown> = { key: 3, target_key: 'other/proj#4' };
    canonicalizeKey('link_issues', args, '!');
    expect(args).toEqual({ key: '#3', target_key: 'other/proj#4' });
  });
});
