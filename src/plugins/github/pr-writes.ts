// The pull request writes of the github plugin: create_merge_request and update_merge_request.
import { isForesightError, PluginError } from '../../contract/index.js';
import { pullNumber } from './args.js';
import { request } from './failure.js';
import { graphql } from './graphql.js';
import { type GitHubPullJson, mergeRequestFromGitHub } from './pr-shape.js';
import { type ReviewContext } from './review-context.js';
import { str, strings, type ToolHandler, writtenResult } from '../kit/index.js';

const TO_DRAFT = `mutation ($id: ID!) {
  convertPullRequestToDraft(input: { pullRequestId: $id }) { pullRequest { isDraft } }
}`;
const TO_READY = `mutation ($id: ID!) {
  markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } }
}`;

const logins = (users: ({ login: string } | null)[] | null | undefined) =>
  (users ?? []).flatMap((user) => (user ? [user.login] : []));

/**
 * Runs one request after others have changed the pull request. When it fails, the error says what was
 * already done, so the agent neither repeats it (a second pull request) nor believes nothing happened.
 */
async function afterDone<T>(done: () => string | undefined, step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const already = done();
    if (already === undefined || !isForesightError(error)) throw error;
    throw new PluginError(error.kind, `${already}, but ${step} failed: ${error.message}`, { cause: error });
  }
}

export function createPullRequestWrites(context: ReviewContext) {
  const { client, owner, repo, target } = context;

  const createMergeRequest: ToolHandler = async (args, ctx) => {
    const { signal } = ctx;
    const source = String(args.source_branch);
    const { data: created } = await request(target('a new pull request'), signal, () =>
      client.rest.pulls.create({
        owner,
        repo,
        title: String(args.title),
        head: source,
        base: String(args.target_branch),
        ...(str(args.body) ? { body: str(args.body) } : {}),
        ...(args.draft === true ? { draft: true } : {}),
        request: { signal },
      }),
    );
    const number = created.number;
    const item = mergeRequestFromGitHub(created as GitHubPullJson);
    const done = () => `Created #${number} (${created.html_url})`;
    const about = target(`pull request #${number}`);
    // Labels and assignees belong to the pull request's issue; GitHub does not take them on creation.
    const labels = strings(args.labels);
    if (labels?.length) {
      const { data } = await afterDone(done, 'adding the labels', () =>
        request(about, signal, () =>
          client.rest.issues.addLabels({ owner, repo, issue_number: number, labels, request: { signal } }),
        ),
      );
      item.labels = data.map((label) => label.name);
    }
    const assignees = strings(args.assignees);
    if (assignees?.length) {
      const { data } = await afterDone(done, 'adding the assignees', () =>
        request(about, signal, () =>
          client.rest.issues.addAssignees({
            owner,
            repo,
            issue_number: number,
            assignees,
            request: { signal },
          }),
        ),
      );
      item.assignees = logins(data.assignees);
    }
    const reviewers = strings(args.reviewers);
    if (reviewers?.length) {
      const { data } = await afterDone(done, 'requesting the reviews', () =>
        request(about, signal, () =>
          client.rest.pulls.requestReviewers({
            owner,
            repo,
            pull_number: number,
            reviewers,
            request: { signal },
          }),
        ),
      );
      item.reviewers = logins(data.requested_reviewers);
    }
    return writtenResult('Created', { kind: 'merge_request', item });
  };

  const updateMergeRequest: ToolHandler = async (args, ctx) => {
    const { signal } = ctx;
    const number = pullNumber(args);
    const about = target(`pull request #${number}`);
    const pullFields = {
      ...(typeof args.title === 'string' ? { title: args.title } : {}),
      ...(typeof args.body === 'string' ? { body: args.body } : {}),
      ...(args.state === 'open' || args.state === 'closed' ? { state: args.state as 'open' | 'closed' } : {}),
      ...(str(args.target_branch) ? { base: str(args.target_branch) } : {}),
    };
    const issueFields = {
      ...(strings(args.labels) ? { labels: strings(args.labels) } : {}),
      ...(strings(args.assignees) ? { assignees: strings(args.assignees) } : {}),
    };
    const reviewers = strings(args.reviewers) ?? [];
    const draft = typeof args.draft === 'boolean' ? args.draft : undefined;
    if (
      !Object.keys(pullFields).length &&
      !Object.keys(issueFields).length &&
      !reviewers.length &&
      draft === undefined
    ) {
      throw new PluginError(
        'invalid_input',
        `nothing to change on #${number}: give title, body, state, target_branch, draft, labels, assignees or reviewers`,
      );
    }

    const changed: string[] = [];
    const done = () => (changed.length ? `Updated #${number} (${changed.join(', ')})` : undefined);
    // The latest copy of the pull request, while it reflects every change made so far.
    let current: GitHubPullJson | undefined;
    const readPull = async () =>
      (
        await request(about, signal, () =>
          client.rest.pulls.get({ owner, repo, pull_number: number, request: { signal } }),
        )
      ).data as GitHubPullJson;

    if (Object.keys(pullFields).length) {
      const { data } = await request(about, signal, () =>
        client.rest.pulls.update({ owner, repo, pull_number: number, ...pullFields, request: { signal } }),
      );
      current = data as GitHubPullJson;
      // Named as the agent names them: GitHub's `base` is the tool's target_branch.
      changed.push(
        `set ${Object.keys(pullFields)
          .map((k) => (k === 'base' ? 'target_branch' : k))
          .join(', ')}`,
      );
    }
    if (Object.keys(issueFields).length) {
      await afterDone(done, `setting ${Object.keys(issueFields).join(' and ')}`, () =>
        request(about, signal, () =>
          client.rest.issues.update({
            owner,
            repo,
            issue_number: number,
            ...issueFields,
            request: { signal },
          }),
        ),
      );
      current = undefined;
      changed.push(`set ${Object.keys(issueFields).join(', ')}`);
    }
    if (reviewers.length) {
      const { data } = await afterDone(done, 'requesting the reviews', () =>
        request(about, signal, () =>
          client.rest.pulls.requestReviewers({
            owner,
            repo,
            pull_number: number,
            reviewers,
            request: { signal },
          }),
        ),
      );
      current = data as GitHubPullJson;
      changed.push('requested reviews');
    }
    if (draft !== undefined) {
      // REST cannot change the draft flag; GraphQL can, by the pull request's node id.
      const pull = current ?? (await afterDone(done, 'reading the pull request', readPull));
      if (pull.draft !== draft) {
        await afterDone(done, draft ? 'converting it to a draft' : 'marking it ready for review', () =>
          graphql(client, about, signal, draft ? TO_DRAFT : TO_READY, { id: pull.node_id }),
        );
        current = undefined;
        changed.push(draft ? 'converted to draft' : 'marked ready for review');
      } else current = pull;
    }
    const final = current ?? (await afterDone(done, 'reading the pull request back', readPull));
    return writtenResult(changed.length ? 'Updated' : 'Nothing to change on', {
      kind: 'merge_request',
      item: mergeRequestFromGitHub(final),
    });
  };

  return { create_merge_request: createMergeRequest, update_merge_request: updateMergeRequest };
}
