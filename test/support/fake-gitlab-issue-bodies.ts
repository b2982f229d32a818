// GitLab REST v4 bodies of users, projects, labels, milestones, issues, issue links and notes, field by field
// as GitLab's API documentation gives them.

export type Body = Record<string, unknown>;

/** Web URLs point at a documentation-style host; the plugin only shows them. */
export const WEB = 'https://gitlab.example.com';
export const DEFAULT_PROJECT = 'group/sub/project';
export const PROJECT_ID = 4;
export const TIME = '2024-01-04T15:31:46.176Z';

/** A stable id per name, so two users or labels differ unless a test gives ids. */
export function idFor(name: string): number {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 90_000;
  return 100 + hash;
}

export function user(username: string, id = idFor(username)): Body {
  return {
    id,
    username,
    name: username.replace(/[._]/g, ' '),
    state: 'active',
    locked: false,
    avatar_url: null,
    web_url: `${WEB}/${username}`,
  };
}

export function milestone(id: number, title: string, project = DEFAULT_PROJECT): Body {
  return {
    id,
    iid: id % 100,
    project_id: PROJECT_ID,
    title,
    description: '',
    state: 'active',
    created_at: TIME,
    updated_at: TIME,
    due_date: null,
    start_date: null,
    expired: false,
    web_url: `${WEB}/${project}/-/milestones/${id % 100}`,
  };
}

export function label(name: string, id = idFor(name)): Body {
  return {
    id,
    name,
    color: '#d9534f',
    text_color: '#FFFFFF',
    description: null,
    description_html: '',
    open_issues_count: 0,
    closed_issues_count: 0,
    open_merge_requests_count: 0,
    subscribed: false,
    priority: null,
    is_project_label: true,
  };
}

export function project(path = DEFAULT_PROJECT, defaultBranch = 'main'): Body {
  const name = path.split('/').at(-1) ?? path;
  return {
    id: PROJECT_ID,
    description: null,
    name,
    name_with_namespace: path.split('/').join(' / '),
    path: name,
    path_with_namespace: path,
    created_at: TIME,
    default_branch: defaultBranch,
    tag_list: [],
    topics: [],
    ssh_url_to_repo: `git@gitlab.example.com:${path}.git`,
    http_url_to_repo: `${WEB}/${path}.git`,
    web_url: `${WEB}/${path}`,
    readme_url: null,
    forks_count: 0,
    star_count: 0,
    last_activity_at: TIME,
    namespace: {
      id: 2,
      name: 'sub',
      path: 'sub',
      kind: 'group',
      full_path: path.split('/').slice(0, -1).join('/'),
    },
    visibility: 'private',
    issues_enabled: true,
    merge_requests_enabled: true,
    jobs_enabled: true,
  };
}

export interface IssueFields {
  title: string;
  state: 'opened' | 'closed';
  description: string | null;
  author: string;
  assignees: string[];
  labels: string[];
  milestone: { id: number; title: string } | null;
  user_notes_count: number;
  created_at: string;
  updated_at: string;
  project: string;
}

export function issue(iid: number, fields: Partial<IssueFields> = {}): Body {
  const path = fields.project ?? DEFAULT_PROJECT;
  const state = fields.state ?? 'opened';
  const assignees = (fields.assignees ?? []).map((name) => user(name));
  const api = `${WEB}/api/v4/projects/${PROJECT_ID}/issues/${iid}`;
  return {
    id: 1000 + iid,
    iid,
    project_id: PROJECT_ID,
    title: fields.title ?? `Issue ${iid}`,
    description: fields.description === undefined ? null : fields.description,
    state,
    created_at: fields.created_at ?? TIME,
    updated_at: fields.updated_at ?? TIME,
    closed_at: state === 'closed' ? (fields.updated_at ?? TIME) : null,
    closed_by: state === 'closed' ? user('root', 1) : null,
    labels: fields.labels ?? [],
    milestone: fields.milestone ? milestone(fields.milestone.id, fields.milestone.title, path) : null,
    assignees,
    author: user(fields.author ?? 'root', fields.author ? undefined : 1),
    type: 'ISSUE',
    assignee: assignees[0] ?? null,
    user_notes_count: fields.user_notes_count ?? 0,
    merge_requests_count: 0,
    upvotes: 0,
    downvotes: 0,
    due_date: null,
    confidential: false,
    discussion_locked: null,
    issue_type: 'issue',
    web_url: `${WEB}/${path}/-/issues/${iid}`,
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    task_completion_status: { count: 0, completed_count: 0 },
    has_tasks: false,
    _links: {
      self: api,
      notes: `${api}/notes`,
      award_emoji: `${api}/award_emoji`,
      project: `${WEB}/api/v4/projects/${PROJECT_ID}`,
      closed_as_duplicate_of: null,
    },
    references: { short: `#${iid}`, relative: `#${iid}`, full: `${path}#${iid}` },
    severity: 'UNKNOWN',
    subscribed: false,
    moved_to_id: null,
    service_desk_reply_to: null,
  };
}

/** An issue as GET /issues/:iid/links lists it: the issue plus the link's own fields. */
export function linkedIssue(iid: number, linkType: string, fields: Partial<IssueFields> = {}): Body {
  return {
    ...issue(iid, fields),
    issue_link_id: 500 + iid,
    link_type: linkType,
    link_created_at: TIME,
    link_updated_at: TIME,
  };
}

export interface NoteFields {
  body: string;
  author: string;
  system: boolean;
  created_at: string;
  updated_at: string;
  noteable_type: 'Issue' | 'MergeRequest';
  noteable_iid: number;
  /** A diff note: where in the diff; makes it resolvable. */
  position: { new_path: string; old_path?: string; new_line: number | null; old_line: number | null };
  resolved: boolean;
}

export function note(id: number, fields: Partial<NoteFields> = {}): Body {
  const type = fields.noteable_type ?? 'Issue';
  const onDiff = fields.position !== undefined;
  const resolvable = type === 'MergeRequest' && fields.system !== true;
  const position = fields.position;
  return {
    id,
    type: onDiff ? 'DiffNote' : type === 'MergeRequest' ? 'DiscussionNote' : null,
    body: fields.body ?? `note ${id}`,
    attachment: null,
    author: user(fields.author ?? 'root', fields.author ? undefined : 1),
    created_at: fields.created_at ?? TIME,
    updated_at: fields.updated_at ?? fields.created_at ?? TIME,
    system: fields.system ?? false,
    noteable_id: 3,
    noteable_type: type,
    project_id: PROJECT_ID,
    ...(position && {
      commit_id: 'a'.repeat(40),
      position: {
        base_sha: 'b'.repeat(40),
        start_sha: 'c'.repeat(40),
        head_sha: 'a'.repeat(40),
        old_path: position.old_path ?? position.new_path,
        new_path: position.new_path,
        position_type: 'text',
        old_line: position.old_line,
        new_line: position.new_line,
        line_range: null,
      },
    }),
    resolvable,
    ...(resolvable && {
      resolved: fields.resolved ?? false,
      resolved_by: fields.resolved ? user('root', 1) : null,
      resolved_at: fields.resolved ? TIME : null,
    }),
    confidential: false,
    internal: false,
    noteable_iid: fields.noteable_iid ?? 1,
    commands_changes: {},
  };
}
