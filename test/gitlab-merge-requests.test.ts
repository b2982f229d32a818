// The gitlab plugin's merge request tools (list, read, open, change), against the fake GitLab.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gl } from './support/fake-gitlab-bodies.js';
import {
  type GitLabRig,
  PROJECT_PATH,
  startGitLabRig,
  structured,
  text,
} from './support/fake-gitlab-harness.js';

let rig: GitLabRig;
beforeEach(async () => {
  rig = await startGitLabRig();
});
afterEach(async () => rig.close());

describe('gitlab get_merge_requests and get_merge_request', () => {
  it('maps state, author, labels and branches, and the requests to the shared shape', async () => {
    rig.list('GET', '/projects/:project/merge_requests', [
      gl.mergeRequest(45, {
        title: 'Add login',
        state: 'merged',
        author: 'eileen.lowe',
        reviewers: ['lennie'],
        labels: ['feature'],
        source_branch: 'login',
        description: 'Adds it',
        user_notes_count: 2,
      }),
    ]);
    const result = await rig.call('get_merge_requests', {
      state: 'merged',
      author: 'eileen.lowe',
      labels: ['feature'],
      source_branch: 'login',
      target_branch: 'main',
    });
    expect(rig.fake.sent('GET', `${PROJECT_PATH}/merge_requests`)[0]?.query).toEqual({
      state: 'merged',
      order_by: 'created_at',
      sort: 'desc',
      labels: 'feature',
      author_username: 'eileen.lowe',
      source_branch: 'login',
      target_branch: 'main',
      per_page: '20',
      page: '1',
    });
    expect(structured(result)).toEqual({
      kind: 'merge_request_list',
      items: [
        {
          key: '!45',
          title: 'Add login',
          state: 'merged',
          url: 'https://gitlab.example.com/group/sub/project/-/merge_requests/45',
          author: 'eileen.lowe',
          reviewers: ['lennie'],
          labels: ['feature'],
          sourceBranch: 'login',
          targetBranch: 'main',
          createdAt: '2024-01-04T15:31:46.176Z',
          updatedAt: '2024-01-04T15:31:46.176Z',
          mergedAt: '2024-01-04T15:31:46.176Z',
          commentCount: 2,
          body: 'Adds it',
        },
      ],
      page: { offset: 0, limit: 20, total: 1 },
    });
  });

  it('asks for opened requests by default and pages past the first page', async () => {
    rig.list(
      'GET',
      '/projects/:project/merge_requests',
      Array.from({ length: 45 }, (_, i) => gl.mergeRequest(45 - i)),
    );
    const result = await rig.call('get_merge_requests', { offset: 20, limit: 25 });
    const data = structured(result) as { items: { key: string; state: string }[]; page: unknown };
    expect(data.items).toHaveLength(25);
    expect(data.items[0]).toMatchObject({ key: '!25', state: 'open' });
    expect(data.page).toEqual({ offset: 20, limit: 25, total: 45 });
    const sent = rig.fake.sent('GET', `${PROJECT_PATH}/merge_requests`);
    expect(sent.map((r) => [r.query.state, r.query.page, r.query.per_page])).toEqual([
      ['opened', '1', '25'],
      ['opened', '2', '25'],
    ]);
  });

  it('reads one merge request by "!45", "#45", 45 or its URL', async () => {
    rig.fake.route('GET', '/projects/:project/merge_requests/:iid', (_r, p) => ({
      status: 200,
      body: gl.mergeRequest(Number(p.iid), { draft: true }),
    }));
    for (const key of [
      '!45',
      '#45',
      45,
      'https://gitlab.example.com/group/sub/project/-/merge_requests/45',
    ]) {
      const result = await rig.call('get_merge_request', { key });
      expect(structured(result)).toMatchObject({
        kind: 'merge_request',
        item: { key: '!45', title: 'Draft: Change 45', draft: true, sourceBranch: 'feature-45' },
      });
    }
    expect(rig.fake.sent('GET', `${PROJECT_PATH}/merge_requests/45`)).toHaveLength(4);
    const bad = await rig.call('get_merge_request', { key: 'PROJ-7' });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('"!45"');
  });
});

describe('gitlab create_merge_request and update_merge_request', () => {
  beforeEach(() => {
    rig.fake.route('GET', '/users', (request) => ({
      status: 200,
      body: [gl.user(request.query.username ?? '', request.query.username === 'lennie' ? 9 : 10)],
    }));
  });

  it('opens a merge request; a draft gets the "Draft:" title GitLab reads', async () => {
    rig.fake.route('POST', '/projects/:project/merge_requests', (request) => {
      const body = request.body as { title: string; source_branch: string };
      return {
        status: 201,
        body: gl.mergeRequest(46, { title: body.title, source_branch: body.source_branch, draft: true }),
      };
    });
    const result = await rig.call('create_merge_request', {
      title: 'Add login',
      source_branch: 'login',
      target_branch: 'main',
      body: 'Closes #12',
      draft: true,
      labels: ['feature'],
      assignees: ['lennie'],
      reviewers: ['@root'],
    });
    expect(rig.fake.sent('POST', `${PROJECT_PATH}/merge_requests`)[0]?.body).toEqual({
      source_branch: 'login',
      target_branch: 'main',
      title: 'Draft: Add login',
      description: 'Closes #12',
      labels: 'feature',
      assignee_ids: [9],
      reviewer_ids: [10],
    });
    expect(text(result)).toBe(
      'Opened !46: Draft: Add login\nhttps://gitlab.example.com/group/sub/project/-/merge_requests/46',
    );
  });

  it('marks ready by rewriting the current title, and closes with a state event', async () => {
    rig.fake.route('GET', '/projects/:project/merge_requests/:iid', (_r, p) => ({
      status: 200,
      body: gl.mergeRequest(Number(p.iid), { title: 'Draft: Add login' }),
    }));
    rig.fake.route('PUT', '/projects/:project/merge_requests/:iid', (request, p) => ({
      status: 200,
      body: gl.mergeRequest(Number(p.iid), { title: (request.body as { title?: string }).title ?? 'x' }),
    }));
    const ready = await rig.call('update_merge_request', {
      key: '!46',
      draft: false,
      target_branch: 'release',
    });
    expect(text(ready)).toMatch(/^Updated !46: Add login/);
    await rig.call('update_merge_request', {
      key: '!46',
      state: 'closed',
      title: '[Draft] later',
      draft: false,
    });
    await rig.call('update_merge_request', { key: '!46', state: 'open', draft: true, title: 'Again' });
    expect(rig.fake.sent('PUT', `${PROJECT_PATH}/merge_requests/46`).map((r) => r.body)).toEqual([
      { title: 'Add login', target_branch: 'release' },
      { title: 'later', state_event: 'close' },
      { title: 'Draft: Again', state_event: 'reopen' },
    ]);
    // Only the call without a title had to read the current one.
    expect(rig.fake.sent('GET', `${PROJECT_PATH}/merge_requests/46`)).toHaveLength(1);
  });
});
