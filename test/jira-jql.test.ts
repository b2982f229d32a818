// get_issues' JQL: the agent's query kept whole (its ORDER BY last), the configured projects added unless the query
// names its own, literals quoted and escaped.
import { describe, expect, it } from 'vitest';
import { issuesJql, quote } from '../src/plugins/jira/jql.js';

describe('issuesJql', () => {
  it('scopes to the projects and to open issues by default', () => {
    expect(issuesJql({}, ['PROJ'])).toBe('project = "PROJ" AND statusCategory != Done ORDER BY created DESC');
  });

  it("keeps the agent's ORDER BY last and lets its query decide the state", () => {
    expect(issuesJql({ query: 'assignee = currentUser() order by priority DESC' }, ['PROJ', 'OPS'])).toBe(
      '(assignee = currentUser()) AND project in ("PROJ", "OPS") ORDER BY priority DESC',
    );
  });

  it('finds ORDER BY only outside string literals', () => {
    expect(issuesJql({ query: 'summary ~ "sort order by date"' }, ['PROJ'])).toBe(
      '(summary ~ "sort order by date") AND project = "PROJ" ORDER BY created DESC',
    );
    expect(issuesJql({ query: 'summary ~ \'x order by y\' order by "Story Points" ASC' }, ['PROJ'])).toBe(
      '(summary ~ \'x order by y\') AND project = "PROJ" ORDER BY "Story Points" ASC',
    );
    expect(issuesJql({ query: 'labels = x ORDER BY "Story Points"' }, ['PROJ'])).toBe(
      '(labels = x) AND project = "PROJ" ORDER BY "Story Points"',
    );
  });

  it('adds no project clause when the query names projects itself', () => {
    expect(issuesJql({ query: 'project = OTHER', state: 'closed' }, ['PROJ'])).toBe(
      '(project = OTHER) AND statusCategory = Done ORDER BY created DESC',
    );
  });

  it('still scopes to the projects when "project" is only inside a string literal', () => {
    expect(issuesJql({ query: 'text ~ "project plan"' }, ['PROJ', 'OPS'])).toBe(
      '(text ~ "project plan") AND project in ("PROJ", "OPS") ORDER BY created DESC',
    );
    expect(
      issuesJql({ query: 'summary ~ \'project = X\' AND text ~ "say \\"project in\\""' }, ['PROJ']),
    ).toBe(
      '(summary ~ \'project = X\' AND text ~ "say \\"project in\\"") AND project = "PROJ" ORDER BY created DESC',
    );
    expect(issuesJql({ query: 'labels = project' }, ['PROJ'])).toBe(
      '(labels = project) AND project = "PROJ" ORDER BY created DESC',
    );
  });

  it.each([
    'project = OTHER',
    'PROJECT != OTHER',
    'project in (A, B)',
    'project not in (A)',
    'project is EMPTY',
    'project was A',
    'status = Done and project=A',
  ])('takes %j as naming the project field', (query) => {
    expect(issuesJql({ query }, ['PROJ'])).toBe(`(${query}) ORDER BY created DESC`);
  });

  it('adds every date filter with its comparison', () => {
    expect(
      issuesJql(
        {
          state: 'all',
          created_after: '2024-01-01',
          created_before: '2024-02-01',
          updated_after: '2024-01-15',
          due_after: '2024-03-01',
          due_before: '2024-04-01',
          type: 'Bug',
          author: 'acc-2',
        },
        ['PROJ'],
      ),
    ).toBe(
      'project = "PROJ" AND reporter = "acc-2" AND issuetype = "Bug" AND created >= "2024-01-01" AND created < "2024-02-01" AND updated >= "2024-01-15" AND due >= "2024-03-01" AND due < "2024-04-01" ORDER BY created DESC',
    );
  });

  it('reads "me" as the account the token belongs to', () => {
    expect(issuesJql({ assignee: 'me', author: '@me', state: 'all' }, ['PROJ'])).toBe(
      'project = "PROJ" AND assignee = currentUser() AND reporter = currentUser() ORDER BY created DESC',
    );
  });

  it('quotes literals, escaping quotes and backslashes', () => {
    expect(quote('a "b" \\ c')).toBe('"a \\"b\\" \\\\ c"');
  });
});
