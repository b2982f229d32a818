// The github plugin against recorded GitHub traffic (@octokit/fixtures) where a recording covers what it sends.
import { afterEach, describe, expect, it } from 'vitest';
import github from '../src/plugins/github/index.js';
import { type Connected, connect, textOf } from './support/in-memory.js';
import { type FakeGitHub, startFakeGitHub } from './support/fake-github.js';

// The token the fixtures were recorded with.
const RECORDED_TOKEN = '0000000000000000000000000000000000000001';
let fake: FakeGitHub | undefined;
let connected: Connected | undefined;

afterEach(async () => {
  await connected?.close();
  await fake?.close();
  connected = undefined;
});

describe('github plugin on recorded GitHub responses', () => {
  it('creates an issue exactly as recorded in add-labels-to-issue, and maps the recorded answer', async () => {
    fake = await startFakeGitHub();
    fake.replay('add-labels-to-issue');
    fake.expectToken(`token ${RECORDED_TOKEN}`);
    process.env.GH_REPLAY_TOKEN = RECORDED_TOKEN;
    connected = await connect({
      plugins: [
        {
          plugin: github,
          name: 'gh',
          options: {
            repo: 'octokit-fixture-org/add-labels-to-issue',
            base_url: fake.url,
            token_env: 'GH_REPLAY_TOKEN',
            retries: 0,
            throttle: false,
          },
        },
      ],
    });
    const result = await connected.client.callTool({
      name: 'gh__create_issue',
      arguments: { title: 'Issue without a label' },
    });
    expect(textOf(result)).toBe(
      'Created #1: Issue without a label\nhttps://github.com/octokit-fixture-org/add-labels-to-issue/issues/1',
    );
    expect(result.structuredContent).toMatchObject({
      kind: 'issue',
      item: { key: '#1', title: 'Issue without a label', state: 'open', author: 'octokit-fixture-user-a' },
    });
    const create = fake.requests.find((r) => r.method === 'POST');
    expect(create?.body).toEqual({ title: 'Issue without a label' });
    // The recording answered it: nothing the plugin sent for the issue went unanswered.
    expect(fake.unmatched.filter((r) => r.method === 'POST')).toEqual([]);
  });
});
