// GitLab issue links: link_issues (relates_to, blocks, is_blocked_by) and how get_issue shows an issue's links.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { type IssueLinkShape, PluginError, type RequestContext } from '../../contract/index.js';
import { parseNumberedKey, type Args, shapedResult } from '../kit/index.js';
import { request } from './failure.js';
import { type GitLabIssueJson, issueFromGitLab, unifiedState } from './issue-shape.js';
import { type ToolDeps, apiFor, targetOf } from './tool-io.js';

/** The relations GitLab's issue links API takes; "blocks" and "is_blocked_by" need Premium. */
export const LINK_TYPES = ['relates_to', 'blocks', 'is_blocked_by'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

export interface IssueRef {
  /** Another project's path, when the key names one ("group/other#12" or its URL). */
  project?: string;
  iid: number;
}

const CROSS_PROJECT = /^([A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+)#(\d+)$/;
const ISSUE_URL = /^https?:\/\/[^/]+\/(.+?)\/-\/(?:issues|work_items)\/(\d+)(?:[/?#].*)?$/;

/** "#12", 12, "group/other#12" or an issue's URL (which names its project). */
export function parseIssueRef(value: unknown, param: string): IssueRef {
  if (typeof value === 'string') {
    const match = CROSS_PROJECT.exec(value.trim()) ?? ISSUE_URL.exec(value.trim());
    if (match?.[1] !== undefined && match[2] !== undefined)
      return { project: match[1], iid: Number(match[2]) };
  }
  return { iid: parseNumberedKey(value, 'issue', param) };
}

/** An issue's links as get_issue shows them: the relation from this issue's side, with the project for an issue elsewhere. */
export function issueLinks(links: GitLabIssueJson[], projectWebUrl?: string): IssueLinkShape[] {
  return links.map((link) => {
    const here = projectWebUrl !== undefined && link.web_url?.startsWith(`${projectWebUrl}/`);
    const key = here || link.references?.full === undefined ? `#${link.iid}` : link.references.full;
    return {
      key,
      relation: link.link_type ?? 'relates_to',
      title: link.title,
      ...(link.state ? { state: unifiedState(link.state) } : {}),
      ...(link.web_url ? { url: link.web_url } : {}),
    };
  });
}

export function createLinkIssues(deps: ToolDeps) {
  const { settings } = deps;
  const target = targetOf(settings);

  return async function linkIssues(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const iid = parseNumberedKey(args.key, 'issue');
    const other = parseIssueRef(args.target_key, 'target_key');
    const linkType = (args.link_type ?? 'relates_to') as LinkType;
    // The enricher makes link_type an enum; this guards a caller that reaches the plugin without it.
    if (!LINK_TYPES.includes(linkType)) {
      throw new PluginError(
        'invalid_input',
        `parameter "link_type" is ${JSON.stringify(args.link_type)}; allowed: ${LINK_TYPES.join(', ')}`,
      );
    }
    const otherKey = `${other.project ?? ''}#${other.iid}`;
    const raw = (await request(target(`the link from issue #${iid} to ${otherKey}`), ctx.signal, () =>
      apiFor(deps, ctx).issueLinks.create(
        settings.projectId,
        iid,
        other.project ?? settings.projectId,
        other.iid,
        { linkType },
      ),
    )) as unknown as { source_issue: GitLabIssueJson; target_issue: GitLabIssueJson; link_type?: string };
    const item = issueFromGitLab(raw.source_issue);
    const relation = (raw.link_type ?? linkType).replaceAll('_', ' ');
    return shapedResult(
      { kind: 'issue', item },
      `Linked #${iid} ${relation} ${otherKey}: ${raw.target_issue.title}${item.url ? `\n${item.url}` : ''}`,
    );
  };
}
