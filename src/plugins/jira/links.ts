// link_issues: a Jira issue link of one of the site's link types, pointed the way the agent's words say.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { RequestContext } from '../../contract/index.js';
import { type Args, notAllowed, shapedResult, str } from '../kit/index.js';
import { issueFromJira, type JiraIssueJson } from './issue-shape.js';
import type { LinkTypeMeta } from './metadata-load.js';
import { type ToolDeps, keyArg } from './tool-io.js';

export interface LinkPlan {
  type: string;
  /** The issue the outward words describe ("A blocks B": A). */
  outward: string;
  inward: string;
  /** The words from `key`'s side, for the answer. */
  relation: string;
}

/**
 * How "key <link_type> target" becomes a link: an outward word ("blocks") or a type name ("Blocks") makes key
 * the outward issue; an inward word ("is blocked by") makes target the outward one. Unknown words list the known.
 */
export function planLink(
  types: readonly LinkTypeMeta[],
  words: string,
  key: string,
  target: string,
): LinkPlan {
  const wanted = words
    .trim()
    .toLowerCase()
    .replace(/[_\s]+/g, ' ');
  const same = (text: string) => text.toLowerCase() === wanted;
  const outward = types.find((t) => same(t.outward) || same(t.name));
  if (outward) return { type: outward.name, outward: key, inward: target, relation: outward.outward };
  const inward = types.find((t) => same(t.inward));
  if (inward) return { type: inward.name, outward: target, inward: key, relation: inward.inward };
  const known = types.flatMap((t) => [t.outward, t.inward]);
  throw notAllowed('link_type', words, [...new Set(known)]);
}

export function createLinkIssues(deps: ToolDeps) {
  const { client, settings, metadata } = deps;

  async function linkTypes(ctx: RequestContext): Promise<LinkTypeMeta[]> {
    const known = metadata.current()?.linkTypes;
    if (known?.length) return known;
    const answer = await client.api<{ issueLinkTypes?: LinkTypeMeta[] }>('the issue link types', ctx, {
      path: '/issueLinkType',
    });
    return answer.issueLinkTypes ?? [];
  }

  return async function linkIssues(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const key = keyArg(deps, args.key);
    const target = keyArg(deps, args.target_key, 'target_key');
    const plan = planLink(await linkTypes(ctx), str(args.link_type) ?? 'relates to', key, target);
    // Jira's POST /issueLink names the link's source `outwardIssue`: "A blocks B" is outwardIssue A, inwardIssue B.
    await client.api(`the link from ${key} to ${target}`, ctx, {
      method: 'POST',
      path: '/issueLink',
      body: {
        type: { name: plan.type },
        outwardIssue: { key: plan.outward },
        inwardIssue: { key: plan.inward },
      },
    });
    const raw = await client.api<JiraIssueJson>(`issue ${key}`, ctx, {
      path: `/issue/${encodeURIComponent(key)}`,
      query: { fields: 'summary,status' },
    });
    const item = issueFromJira(raw, settings.baseUrl);
    return shapedResult(
      { kind: 'issue', item },
      `Linked ${key} ${plan.relation} ${target}\n${item.url ?? ''}`.trim(),
    );
  };
}
