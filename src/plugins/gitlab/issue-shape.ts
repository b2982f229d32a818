// Maps GitLab's REST issue and note JSON to the shared IssueShape and CommentShape.
import type { CommentShape, IssueShape } from '../../contract/index.js';

export interface GitLabUserJson {
  id?: number;
  username: string;
  name?: string;
}

/** The part of GitLab's issue JSON (lists, single issues, issue links) that issueFromGitLab reads. */
export interface GitLabIssueJson {
  id?: number;
  iid: number;
  project_id?: number;
  title: string;
  /** "opened" or "closed". */
  state: string;
  description?: string | null;
  web_url?: string;
  author?: GitLabUserJson | null;
  assignees?: GitLabUserJson[] | null;
  /** Names, or label objects with `with_labels_details`. */
  labels?: (string | { name?: string })[];
  milestone?: { id?: number; title: string } | null;
  created_at?: string;
  updated_at?: string;
  closed_at?: string | null;
  user_notes_count?: number;
  references?: { short?: string; full?: string };
  /** Issue links: how the listed issue relates to the one asked about. */
  link_type?: string;
}

export interface GitLabNoteJson {
  id: number;
  body?: string | null;
  author?: GitLabUserJson | null;
  created_at?: string;
  updated_at?: string;
  /** Notes GitLab writes itself ("changed the description", "added 1 commit"). */
  system?: boolean;
  type?: string | null;
  resolvable?: boolean;
  resolved?: boolean;
  position?: {
    new_path?: string | null;
    old_path?: string | null;
    new_line?: number | null;
    old_line?: number | null;
  } | null;
}

/** GitLab's "opened" is the unified "open"; every other state keeps GitLab's word. */
export const unifiedState = (state: string): string => (state === 'opened' ? 'open' : state);

export const nonEmpty = (values: (string | null | undefined)[]): string[] | undefined => {
  const kept = values.filter((value): value is string => typeof value === 'string' && value !== '');
  return kept.length > 0 ? kept : undefined;
};

/** Copies the defined, non-empty values of `optional` onto `shape`: GitLab's nulls are left out, never invented. */
export function withOptional<T extends object>(shape: T, optional: Partial<T>): T {
  for (const [name, value] of Object.entries(optional)) {
    if (value !== undefined && value !== null && value !== '') Object.assign(shape, { [name]: value });
  }
  return shape;
}

export function issueFromGitLab(raw: GitLabIssueJson): IssueShape {
  return withOptional<IssueShape>(
    { key: `#${raw.iid}`, title: raw.title, state: unifiedState(raw.state) },
    {
      url: raw.web_url,
      author: raw.author?.username,
      assignees: nonEmpty((raw.assignees ?? []).map((user) => user.username)),
      labels: nonEmpty((raw.labels ?? []).map((label) => (typeof label === 'string' ? label : label.name))),
      milestone: raw.milestone?.title,
      createdAt: raw.created_at,
      updatedAt: raw.updated_at,
      closedAt: raw.closed_at ?? undefined,
      commentCount: raw.user_notes_count,
      body: raw.description ?? undefined,
    },
  );
}

/** An issue note or a merge request thread note; `url` is the item's web URL, the note's anchor is added. */
export function commentFromGitLab(raw: GitLabNoteJson, url?: string): CommentShape {
  const position = raw.position;
  const onNewSide = typeof position?.new_line === 'number';
  return withOptional<CommentShape>(
    { id: String(raw.id), body: raw.body ?? '' },
    {
      author: raw.author?.username,
      createdAt: raw.created_at,
      updatedAt: raw.updated_at !== raw.created_at ? raw.updated_at : undefined,
      url: url === undefined ? undefined : `${url}#note_${raw.id}`,
      path: (onNewSide ? position?.new_path : (position?.old_path ?? position?.new_path)) ?? undefined,
      line: (onNewSide ? position?.new_line : position?.old_line) ?? undefined,
      resolved: raw.resolvable === true ? raw.resolved === true : undefined,
    },
  );
}
