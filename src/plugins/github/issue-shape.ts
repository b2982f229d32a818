// Maps one issue of the GitHub REST API (issue lists, single issues, search results) to the shared IssueShape.
import type { IssueShape } from '../../contract/index.js';

/** The part of GitHub's REST issue JSON that issueFromGitHub reads; everything else is ignored. */
export interface GitHubIssueJson {
  number: number;
  title: string;
  state: string;
  html_url?: string;
  user?: { login: string } | null;
  assignees?: { login: string }[] | null;
  /** Names, or label objects (the REST API gives objects; some payloads give names). */
  labels?: (string | { name?: string | null })[];
  created_at?: string;
  updated_at?: string;
  closed_at?: string | null;
  /** Number of comments. */
  comments?: number;
  body?: string | null;
  milestone?: { title: string } | null;
  /** Present when the "issue" is a pull request (the issues endpoints list both). */
  pull_request?: unknown;
}

const nonEmpty = (values: (string | null | undefined)[]): string[] | undefined => {
  const kept = values.filter((value): value is string => typeof value === 'string' && value !== '');
  return kept.length > 0 ? kept : undefined;
};

/** Pure: fields GitHub leaves null or empty are left out, never invented. */
export function issueFromGitHub(raw: GitHubIssueJson): IssueShape {
  const shape: IssueShape = { key: `#${raw.number}`, title: raw.title, state: raw.state };
  const optional: Partial<IssueShape> = {
    url: raw.html_url,
    author: raw.user?.login,
    assignees: nonEmpty((raw.assignees ?? []).map((user) => user.login)),
    labels: nonEmpty((raw.labels ?? []).map((label) => (typeof label === 'string' ? label : label.name))),
    type: raw.pull_request === undefined || raw.pull_request === null ? undefined : 'pull request',
    milestone: raw.milestone?.title,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
    closedAt: raw.closed_at ?? undefined,
    commentCount: raw.comments,
    body: raw.body === null || raw.body === '' ? undefined : raw.body,
  };
  for (const [name, value] of Object.entries(optional)) {
    if (value !== undefined && value !== '') Object.assign(shape, { [name]: value });
  }
  return shape;
}
