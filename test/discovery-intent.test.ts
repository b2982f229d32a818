import { describe, expect, it } from 'vitest';
import { createToolIndex } from '../src/discovery/index.js';
import { intentFactor, requestIntent, toolIntent } from '../src/discovery/intent.js';

describe('a request’s intent', () => {
  it('reads when it starts with a read verb, even beside a change word', () => {
    expect(requestIntent('show the comments on PR 12')).toBe('read');
    expect(requestIntent('find the issue that was closed yesterday')).toBe('read');
  });

  it('writes when it asks for a change', () => {
    expect(requestIntent('create a ticket for the flaky test')).toBe('write');
    expect(requestIntent('please reopen issue 7')).toBe('write');
  });

  it('reads when it only names things', () => {
    expect(requestIntent('GitLab issues with the security label')).toBe('read');
    expect(requestIntent('')).toBe('unknown');
  });
});

describe('a tool’s intent', () => {
  it('follows readOnlyHint when the tool gives it', () => {
    expect(toolIntent('gh__create_issue', { readOnlyHint: true })).toBe('read');
    expect(toolIntent('gh__get_issue', { readOnlyHint: false })).toBe('write');
  });

  it('else follows the first verb of its local name', () => {
    expect(toolIntent('gitlab__update_merge_request')).toBe('write');
    expect(toolIntent('jira__get_issues')).toBe('read');
    expect(toolIntent('weather')).toBe('unknown');
  });

  it('weighs a mismatch down and leaves a match or an unknown alone', () => {
    expect(intentFactor('read', 'write')).toBeLessThan(1);
    expect(intentFactor('write', 'read')).toBeLessThan(1);
    expect(intentFactor('read', 'read')).toBe(1);
    expect(intentFactor('unknown', 'write')).toBe(1);
    expect(intentFactor('read', 'unknown')).toBe(1);
  });
});

describe('ranking by intent', () => {
  // Two tools that describe the same object in the same words: only what they do tells them apart.
  const index = createToolIndex([
    { name: 'tracker__update_issue', description: 'Issues of the tracker: title, labels and state.' },
    { name: 'tracker__get_issues', description: 'Issues of the tracker: title, labels and state.' },
  ]);

  it('puts the reading tool first for a request that reads', () => {
    expect(index.search('issues with the security label', { limit: 2 })[0]?.name).toBe('tracker__get_issues');
  });

  it('puts the writing tool first for a request that changes', () => {
    expect(index.search('change the labels of an issue', { limit: 2 })[0]?.name).toBe(
      'tracker__update_issue',
    );
  });
});
