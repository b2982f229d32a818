import * as z from 'zod';
import { describe, expect, test } from 'vitest';
import { defaultConfig, parseConfig, validatePluginOptions, type PluginEntry } from '../src/config/index.js';

const FILE = '/proj/foresight.toml';

const GitHubOptionsSchema = z.strictObject({
  repo: z.string().regex(/^[^/]+\/[^/]+$/, { error: 'expected "owner/name"' }),
  token_env: z.string(),
  labels: z.strictObject({ bug: z.string() }).optional(),
});

function entry(text: string, name: string): PluginEntry {
  const found = parseConfig(text, FILE, '/proj', { GH: 'gh-test-token' }).plugins.find(
    (plugin) => plugin.name === name,
  );
  if (!found) throw new Error(`no plugin ${name}`);
  return found;
}

describe('validatePluginOptions', () => {
  test('returns the parsed options', () => {
    const gh = entry('[plugins.gh]\nuse = "github"\nrepo = "o/r"\ntoken_env = "GH"\n', 'gh');
    expect(validatePluginOptions(gh, GitHubOptionsSchema)).toEqual({ repo: 'o/r', token_env: 'GH' });
  });

  test('a bad option names plugins.<name>.<key>, the file and its line, and what was given', () => {
    const text = '[plugins.workspace]\n\n[plugins.gh]\nuse = "github"\ntoken_env = "GH"\nrepo = "octo"\n';
    expect(() => validatePluginOptions(entry(text, 'gh'), GitHubOptionsSchema)).toThrow(
      `${FILE}:6: plugins.gh.repo: expected "owner/name", got "octo"`,
    );
  });

  test("zod's own wording is reworded; unknown options list the allowed ones; missing ones point at the header", () => {
    const text =
      '[plugins.gh]\nuse = "github"\nrepo = "o/r"\ntokn_env = "GH"\n\n[plugins.gh.labels]\nbug = 1\n';
    let message = '';
    try {
      validatePluginOptions(entry(text, 'gh'), GitHubOptionsSchema);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('\n')).toEqual([
      `${FILE}: 3 problems:`,
      `  ${FILE}:1: plugins.gh.token_env: required but missing; expected a string`,
      `  ${FILE}:4: plugins.gh.tokn_env: unknown key "tokn_env" (did you mean "token_env"?); allowed: repo, token_env, labels`,
      `  ${FILE}:7: plugins.gh.labels.bug: expected a string, got 1`,
    ]);
  });

  test('the embedded default is named as such', () => {
    const [workspace] = defaultConfig('/home/me/project').plugins;
    if (!workspace) throw new Error('no workspace plugin');
    expect(() =>
      validatePluginOptions(workspace, z.strictObject({ root: z.number({ error: 'expected a number' }) })),
    ).toThrow('(embedded default): plugins.workspace.root: expected a number, got "/home/me/project"');
  });
});
