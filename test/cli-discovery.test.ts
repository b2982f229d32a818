// `foresight check` says which discovery mode is in force and what the full tools/list costs, for the embedded
// default (every tool listed), a file's default ("auto") and a threshold the list exceeds.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  WORKSPACE_FILES,
  assertBuilt,
  killAll,
  makeWorkspace,
  removeWorkspaces,
  runCli,
} from './support/cli.js';

afterEach(async () => {
  await killAll();
  await removeWorkspaces();
});

beforeAll(() => assertBuilt());

const LINE = /^note {2}discovery: (.+)$/m;

/** `check`'s discovery line in a workspace holding `toml` as its foresight.toml (none when undefined). */
async function discoveryOf(toml: string | undefined): Promise<string> {
  const cwd = await makeWorkspace(
    toml === undefined ? WORKSPACE_FILES : { ...WORKSPACE_FILES, 'foresight.toml': toml },
  );
  const run = await runCli(['check'], { cwd });
  expect(run.stderr).not.toMatch(/fail/);
  expect(run.code).toBe(0);
  const found = LINE.exec(run.stdout);
  if (!found?.[1]) throw new Error(`no discovery line in:\n${run.stdout}`);
  return found[1];
}

const cost = (line: string) =>
  Number(/full tools\/list ([\d,]+) tokens/.exec(line)?.[1]?.replaceAll(',', ''));

describe('foresight check: the discovery line', () => {
  it('names the mode in force and the full list cost, one line each config', async () => {
    const embedded = await discoveryOf(undefined);
    expect(embedded).toMatch(/^all \(set; full tools\/list [\d,]+ tokens\)$/);
    const listCost = cost(embedded);
    // The workspace's tools: a few hundred tokens, far from the auto threshold.
    expect(listCost).toBeGreaterThan(100);

    const auto = await discoveryOf('[plugins.workspace]\nroot = "."\n');
    expect(auto).toBe(
      `auto → all (full tools/list ${listCost.toLocaleString('en-US')} tokens <= auto_tokens 8,000)`,
    );

    const over = await discoveryOf(
      `[plugins.workspace]\nroot = "."\n\n[discovery]\nauto_tokens = ${listCost - 1}\n`,
    );
    expect(over).toBe(
      `auto → search (full tools/list ${listCost.toLocaleString('en-US')} tokens > auto_tokens ${(listCost - 1).toLocaleString('en-US')})`,
    );

    const search = await discoveryOf('[plugins.workspace]\nroot = "."\n\n[discovery]\nmode = "search"\n');
    expect(search).toMatch(/^search \(set; full tools\/list [\d,]+ tokens\)$/);
  });
});
