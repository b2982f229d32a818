// GitHub REST issue JSON to IssueShape: every field mapped, nothing invented for what GitHub leaves empty.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type GitHubIssueJson, issueFromGitHub } from '../src/plugins/github/issue-shape.js';

const fixture = (scenario: string) =>
  JSON.parse(
    readFileSync(
      `node_modules/@octokit/fixtures/scenarios/api.github.com/${scenario}/normalized-fixture.json`,
      'utf8',
    ),
  ) as { method: string; response: unknown }[];

describe('issueFromGitHub', () => {
  it('maps a recorded search result, leaving out the null and empty fields', () => {
    const [search] = fixture('search-issues');
    const [raw] = (search?.response as { items: GitHubIssueJson[] }).items;
    expect(issueFromGitHub(raw as GitHubIssueJson)).toEqual({
      key: '#2',
      title: 'Sesame seeds split without a pop!',
      state: 'open',
      url: 'https://github.com/octokit-fixture-org/search-issues/issues/2',
      author: 'octokit-fixture-user-b',
      createdAt: '2017-10-10T16:00:00Z',
      updatedAt: '2017-10-10T16:00:00Z',
      commentCount: 42,
      body: 'I’ve waited all year long, but there was no pop 😭',
    });
  });

  it('maps a recorded list issue with a null body and no labels or assignees', () => {
    const [first] = fixture('paginate-issues');
    const [raw] = first?.response as GitHubIssueJson[];
    const shape = issueFromGitHub(raw as GitHubIssueJson);
    expect(shape).toEqual({
      key: '#13',
      title: 'Test issue 13',
      state: 'open',
      url: 'https://github.com/octokit-fixture-org/paginate-issues/issues/13',
      author: 'octokit-fixture-user-a',
      createdAt: '2017-10-10T16:00:00Z',
      updatedAt: '2017-10-10T16:00:00Z',
      commentCount: 42,
    });
    expect(Object.values(shape)).not.toContain(undefined);
  });

  it('maps assignees, labels given as names or objects, the milestone, closing date and pull requests', () => {
    const raw: GitHubIssueJson = {
      number: 7,
      title: 'Crash on save',
      state: 'closed',
      html_url: 'https://github.com/o/r/pull/7',
      user: { login: 'alice' },
      assignees: [{ login: 'bob' }, { login: 'carol' }],
      labels: ['bug', { name: 'ui' }, { name: null }, { name: '' }],
      created_at: '2020-05-01T10:00:00Z',
      updated_at: '2020-05-02T10:00:00Z',
      closed_at: '2020-05-03T10:00:00Z',
      comments: 0,
      body: '',
      milestone: { title: 'v1.2' },
      pull_request: { url: 'https://api.github.com/repos/o/r/pulls/7' },
    };
    expect(issueFromGitHub(raw)).toEqual({
      key: '#7',
      title: 'Crash on save',
      state: 'closed',
      url: 'https://github.com/o/r/pull/7',
      author: 'alice',
      assignees: ['bob', 'carol'],
      labels: ['bug', 'ui'],
      type: 'pull request',
      milestone: 'v1.2',
      createdAt: '2020-05-01T10:00:00Z',
      updatedAt: '2020-05-02T10:00:00Z',
      closedAt: '2020-05-03T10:00:00Z',
      commentCount: 0,
    });
  });

  it('needs only number, title and state', () => {
    expect(issueFromGitHub({ number: 1, title: 'T', state: 'open', user: null, milestone: null })).toEqual({
      key: '#1',
      title: 'T',
      state: 'open',
    });
  });
});
