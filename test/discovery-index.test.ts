import { describe, expect, it } from 'vitest';
import { type IndexableTool, createToolIndex } from '../src/discovery/index.js';
import { fuse, queryParts } from '../src/discovery/parts.js';

const object = (properties: Record<string, object>): object => ({ type: 'object', properties });

const CATALOG: IndexableTool[] = [
  {
    name: 'github__create_pull_request',
    description: 'Open a new pull request from a head branch into a base branch.',
    inputSchema: object({ head: { type: 'string' }, base: { type: 'string' }, title: { type: 'string' } }),
  },
  {
    name: 'gitlab__list_merge_requests',
    description: 'List merge requests of a GitLab project.',
    inputSchema: object({
      project: { type: 'string', description: 'Project path', enum: ['acme/payments', 'acme/web'] },
      state: { type: 'string', enum: ['opened', 'merged', 'closed'] },
    }),
  },
  {
    name: 'jira__createIssue',
    description: 'Create a Jira issue in a project.',
    inputSchema: object({
      summary: { type: 'string' },
      labels: { type: 'array', items: { type: 'string', enum: ['frontend', 'billing-incident'] } },
    }),
  },
  {
    name: 'github__list_workflow_runs',
    description: 'List the runs of a GitHub Actions workflow.',
    inputSchema: object({ workflow_id: { type: 'string', description: 'The workflow file name' } }),
  },
  {
    name: 'slack__post_message',
    description: 'Send a message to a channel.',
    inputSchema: object({ channel: { type: 'string' }, text: { type: 'string' } }),
  },
  {
    name: 'calendar__create_event',
    description: 'Schedule a meeting on the calendar.',
    inputSchema: object({ start: { type: 'string' }, attendees: { type: 'array' } }),
  },
];

const names = (hits: { name: string }[]): string[] => hits.map((hit) => hit.name);

describe('tool index', () => {
  const index = createToolIndex(CATALOG);

  it('ranks the tool a request names first', () => {
    expect(index.search('open a pull request')[0]?.name).toBe('github__create_pull_request');
    expect(index.search('send a message to the team channel')[0]?.name).toBe('slack__post_message');
    expect(index.search('schedule a meeting tomorrow')[0]?.name).toBe('calendar__create_event');
  });

  it('splits names on __, _ and camelCase', () => {
    expect(index.search('create issue')[0]?.name).toBe('jira__createIssue');
  });

  it('finds tools through the vocabulary of the field', () => {
    expect(index.search('show me the MRs')[0]?.name).toBe('gitlab__list_merge_requests');
    expect(index.search('file a ticket')[0]?.name).toBe('jira__createIssue');
    expect(index.search('did the CI pipeline pass')[0]?.name).toBe('github__list_workflow_runs');
  });

  it('searches enum values of the input schema, nested ones included', () => {
    expect(index.search('acme payments')[0]?.name).toBe('gitlab__list_merge_requests');
    expect(index.search('billing incident')[0]?.name).toBe('jira__createIssue');
  });

  it('finds a tool for each part of a long task text', () => {
    const hits = names(
      index.search(
        'Open a pull request for the fix. Then post a message in the release channel to tell everyone.',
        { limit: 3 },
      ),
    );
    expect(hits).toContain('github__create_pull_request');
    expect(hits).toContain('slack__post_message');
  });

  it('applies boosts from outside, as a function or a map', () => {
    const query = 'list merge requests and workflow runs';
    const plain = names(index.search(query, { limit: 2 }));
    const other = plain[1] ?? '';
    expect(index.search(query, { boost: (name) => (name === other ? 10 : 1) })[0]?.name).toBe(other);
    expect(index.search(query, { boost: new Map([[other, 10]]) })[0]?.name).toBe(other);
    expect(index.search(query, { boost: { [other]: 10 } })[0]?.name).toBe(other);
  });

  it('keeps to the limit', () => {
    expect(index.search('list create', { limit: 2 })).toHaveLength(2);
    expect(index.search('list create', { limit: 0 })).toEqual([]);
  });

  it('answers an empty or meaningless query with nothing, without throwing', () => {
    for (const query of ['', '   ', 'the and of', '!!! ??? ...', 'zzqxv', '\u0000\uffff']) {
      expect(index.search(query)).toEqual([]);
    }
  });
});

describe('tool index updates', () => {
  it('adds, replaces and removes tools by name', () => {
    const index = createToolIndex(CATALOG.slice(0, 2));
    expect(index.size).toBe(2);
    expect(index.search('weather forecast')).toEqual([]);

    index.upsert({ name: 'weather__forecast', description: 'Tomorrow’s weather forecast for a city.' });
    expect(index.size).toBe(3);
    expect(index.search('weather forecast')[0]?.name).toBe('weather__forecast');

    index.upsert({ name: 'weather__forecast', description: 'Tide tables for a harbour.' });
    expect(index.size).toBe(3);
    expect(names(index.search('weather'))).toEqual(['weather__forecast']);
    expect(index.search('tide harbour')[0]?.name).toBe('weather__forecast');
    expect(index.search('city')).toEqual([]);

    expect(index.remove('weather__forecast')).toBe(true);
    expect(index.remove('weather__forecast')).toBe(false);
    expect(index.has('weather__forecast')).toBe(false);
    expect(index.search('tide harbour')).toEqual([]);
    expect(index.size).toBe(2);
  });

  it('leaves the schema it reads unchanged', () => {
    const schema = object({ state: { type: 'string', enum: ['open'], const: 'open' } });
    const before = JSON.stringify(schema);
    createToolIndex([{ name: 'x', inputSchema: schema }]);
    expect(JSON.stringify(schema)).toBe(before);
  });
});

describe('long task texts', () => {
  it('split into sentences and "then" clauses, vague parts left out', () => {
    expect(
      queryParts('Open a pull request for the fix. Then post a message in the release channel.'),
    ).toEqual(['Open a pull request for the fix', 'post a message in the release channel']);
    expect(queryParts('list merge requests, then close the stale ones; ok.')).toEqual([
      'list merge requests',
      'close the stale ones',
    ]);
    expect(queryParts('list the open merge requests')).toEqual([]);
  });

  it('merge the parts on one scale, so a part with low scores still brings its best tool', () => {
    const merged = fuse([
      {
        hits: [
          { name: 'a', score: 40 },
          { name: 'b', score: 20 },
        ],
        weight: 1,
      },
      {
        hits: [
          { name: 'c', score: 2 },
          { name: 'b', score: 1 },
        ],
        weight: 0.5,
      },
    ]);
    expect(merged.get('a')).toBeCloseTo(1);
    expect(merged.get('b')).toBeCloseTo(0.75);
    expect(merged.get('c')).toBeCloseTo(0.5);
  });
});
