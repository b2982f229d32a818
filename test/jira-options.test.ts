// The jira plugin's options and its small pure parts: flavor and credentials from the config, priority words, keys.
import { describe, expect, it } from 'vitest';
import { parsePluginOptions } from '../src/plugins/kit/index.js';
import { issueKeyOf } from '../src/plugins/jira/keys.js';
import { JiraOptionsSchema, jiraSettings } from '../src/plugins/jira/options.js';
import { resolvePriority } from '../src/plugins/jira/priorities.js';

const parse = (options: Record<string, unknown>) => parsePluginOptions(JiraOptionsSchema, 'jira', options);

describe('jira options', () => {
  it('defaults the flavor by host, and reads the credentials from the named variables', () => {
    const cloud = jiraSettings(
      parse({
        base_url: 'https://acme.atlassian.net/',
        email_env: 'E',
        token_env: 'T',
        projects: ['proj', 'OPS'],
      }),
      { E: 'mia@example.com', T: 'secret' },
    );
    expect(cloud).toMatchObject({
      baseUrl: 'https://acme.atlassian.net',
      flavor: 'cloud',
      apiPath: '/rest/api/3',
      providerName: 'Jira Cloud (acme.atlassian.net)',
      projects: ['PROJ', 'OPS'],
      email: 'mia@example.com',
      token: 'secret',
      metadataTtlMs: 600_000,
      retries: 2,
    });
    const server = jiraSettings(
      parse({ base_url: 'https://jira.example.com', token_env: 'T', projects: ['P'] }),
      { T: 'pat' },
    );
    expect(server).toMatchObject({
      flavor: 'server',
      apiPath: '/rest/api/2',
      providerName: 'Jira (jira.example.com)',
    });
  });

  it('asks Cloud for email_env, and names each bad key', () => {
    expect(() => parse({ base_url: 'https://acme.atlassian.net', token_env: 'T', projects: ['P'] })).toThrow(
      /email_env: Jira Cloud signs in with an email and an API token/,
    );
    expect(() => parse({ base_url: 'https://x.example.com', token_env: 'T', projects: [] })).toThrow(
      /projects/,
    );
    expect(() => parse({ base_url: 'https://x.example.com', token_env: 'T', projects: ['P-1'] })).toThrow(
      /projects\.0: expected a project key/,
    );
    expect(() =>
      parse({ base_url: 'https://x.example.com', token_env: 'T', projects: ['P'], token: 'x' }),
    ).toThrow(/token/);
  });
});

describe('priority words', () => {
  const standard = ['Highest', 'High', 'Medium', 'Low', 'Lowest'];
  it.each([
    ['urgent', standard, 'Highest'],
    ['high', standard, 'High'],
    ['normal', standard, 'Medium'],
    ['low', standard, 'Low'],
    ['MEDIUM', standard, 'Medium'],
    ['urgent', ['Blocker', 'Critical', 'Major', 'Minor', 'Trivial'], 'Critical'],
    ['normal', ['Blocker', 'Critical', 'Major', 'Minor', 'Trivial'], 'Major'],
    ['low', ['Blocker', 'Critical', 'Major', 'Minor', 'Trivial'], 'Minor'],
    ['urgent', ['P1', 'P2', 'P3'], 'P1'],
    ['normal', ['P1', 'P2', 'P3'], 'P2'],
    ['low', ['P1', 'P2', 'P3'], 'P3'],
  ])('%s among %j is %s', (word, names, expected) => {
    expect(resolvePriority(word, names)).toBe(expected);
  });

  it('knows no other words', () => {
    expect(resolvePriority('soon', standard)).toBeUndefined();
  });
});

describe('issue keys', () => {
  it.each([
    ['PROJ-7', undefined, 'PROJ-7'],
    ['proj-07', undefined, 'PROJ-7'],
    ['https://acme.atlassian.net/browse/PROJ-7?focusedCommentId=1', undefined, 'PROJ-7'],
    ['7', 'PROJ', 'PROJ-7'],
    [7, 'PROJ', 'PROJ-7'],
    ['#7', 'PROJ', 'PROJ-7'],
    ['7', undefined, undefined],
    ['not a key', 'PROJ', undefined],
  ])('%j (sole project %s) is %s', (value, sole, expected) => {
    expect(issueKeyOf(value, sole)).toBe(expected);
  });
});
