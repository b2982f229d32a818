// Maps one issue comment of the GitHub REST API to the shared CommentShape.
import type { CommentShape } from '../../contract/index.js';

export interface GitHubCommentJson {
  id: number;
  body?: string | null;
  user?: { login: string } | null;
  created_at?: string;
  updated_at?: string;
  html_url?: string;
}

export function commentFromGitHub(raw: GitHubCommentJson): CommentShape {
  const shape: CommentShape = { id: String(raw.id), body: raw.body ?? '' };
  if (raw.user?.login) shape.author = raw.user.login;
  if (raw.created_at) shape.createdAt = raw.created_at;
  if (raw.updated_at && raw.updated_at !== raw.created_at) shape.updatedAt = raw.updated_at;
  if (raw.html_url) shape.url = raw.html_url;
  return shape;
}
