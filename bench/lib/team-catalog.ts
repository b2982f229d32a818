// The team config's tool catalog as a client sees it: workspace, GitHub, GitLab, Jira and ClickUp mounted in one
// in-process host against loopback fakes that serve each provider's metadata, listed through a real SDK client
// once the enrichers have put the projects' labels, statuses and fields into the schemas.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, InMemoryTransport, type Tool } from '@modelcontextprotocol/client';
import { createHost } from '../../src/create-host.js';
import clickup from '../../src/plugins/clickup/index.js';
import github from '../../src/plugins/github/index.js';
import gitlab from '../../src/plugins/gitlab/index.js';
import jira from '../../src/plugins/jira/index.js';
import workspace from '../../src/plugins/workspace/index.js';
import { createMemoryLogger } from '../../test/support/in-memory.js';
import { MEMBERS, list, member, status, teams } from '../../test/support/fake-clickup-bodies.js';
import { gh, startFakeGitHub } from '../../test/support/fake-github.js';
import { gl } from '../../test/support/fake-gitlab-bodies.js';
import { paged, startFakeGitLab } from '../../test/support/fake-gitlab.js';
import { jira as jiraBodies, startFakeJira } from '../../test/support/fake-jira.js';
import { OPS, PROJ, routeMetadata as routeJiraMetadata } from '../../test/support/fake-jira-metadata.js';
import { startFakeRest } from '../../test/support/fake-rest.js';

/** What the team works on, as the fakes' metadata names it (the queries mention these). */
export const TEAM = {
  githubRepo: 'acme/storefront-web',
  githubLabels: ['bug', 'enhancement', 'documentation', 'good first issue', 'needs-triage'],
  githubMilestones: ['v2.4', 'v2.5'],
  gitlabProject: 'acme/payments-api',
  gitlabLabels: ['bug', 'feature', 'security', 'tech-debt', 'backend'],
  gitlabMilestones: ['Sprint 42', 'Q3 release'],
  jiraProjects: [PROJ.key, OPS.key],
  clickupLists: [
    { id: '901200001', name: 'Product Roadmap' },
    { id: '901200002', name: 'Support Queue' },
  ],
} as const;

const CLICKUP_STATUSES = [
  status('backlog', 'open', 0),
  status('in progress', 'custom', 1),
  status('in review', 'custom', 2),
  status('blocked', 'custom', 3),
  status('done', 'closed', 4),
];

const ENV = {
  github: 'FORESIGHT_BENCH_GITHUB_TOKEN',
  gitlab: 'FORESIGHT_BENCH_GITLAB_TOKEN',
  jiraToken: 'FORESIGHT_BENCH_JIRA_TOKEN',
  jiraEmail: 'FORESIGHT_BENCH_JIRA_EMAIL',
  clickup: 'FORESIGHT_BENCH_CLICKUP_TOKEN',
} as const;

export interface TeamCatalog {
  /**
   * `tools/list` as the client received it (every page joined), the fakes' loopback origins (their ports change
   * from run to run) replaced with the hosted services' names, so the catalog and its token count are stable.
   */
  tools: Tool[];
  /** The result object of that list, what a client pays for before its first call. */
  listResult: { tools: Tool[] };
}

/** A project tree for the workspace plugin: a few files, so its enrichers have something to see. */
async function workspaceTree(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'foresight-team-catalog-'));
  await mkdir(join(root, 'src'));
  await writeFile(join(root, 'package.json'), '{ "name": "storefront-web", "type": "module" }\n');
  await writeFile(join(root, 'src', 'index.ts'), 'export const hello = () => "hi";\n');
  await writeFile(join(root, 'README.md'), '# storefront-web\n');
  return root;
}

async function startFakes() {
  const githubFake = await startFakeGitHub();
  githubFake.route('GET', '/repos/:owner/:repo/labels', {
    status: 200,
    body: TEAM.githubLabels.map((name) => gh.label(name, undefined, TEAM.githubRepo)),
  });
  githubFake.route('GET', '/repos/:owner/:repo/milestones', {
    status: 200,
    body: TEAM.githubMilestones.map((title, i) => gh.milestone(i + 1, title, TEAM.githubRepo)),
  });
  githubFake.route('GET', '/repos/:owner/:repo', (_r, params) => ({
    status: 200,
    body: gh.repository(`${params.owner}/${params.repo}`),
  }));

  const gitlabFake = await startFakeGitLab();
  gitlabFake.route('GET', '/user', { status: 200, body: gl.user('mia') });
  gitlabFake.route('GET', '/projects/:project', (_r, params) => ({
    status: 200,
    body: gl.project(params.project, 'main'),
  }));
  gitlabFake.route('GET', '/projects/:project/labels', (request) =>
    paged(
      TEAM.gitlabLabels.map((name) => gl.label(name)),
      request,
      gitlabFake.url,
    ),
  );
  gitlabFake.route('GET', '/projects/:project/milestones', (request) =>
    paged(
      TEAM.gitlabMilestones.map((title, i) => gl.milestone(i + 1, title)),
      request,
      gitlabFake.url,
    ),
  );

  const jiraFake = await startFakeJira();
  jiraFake.route('GET', '/rest/api/3/myself', {
    status: 200,
    body: jiraBodies.user('cloud', '5b10a2844c20165700ede21g', 'Mia Krystof'),
  });
  routeJiraMetadata(jiraFake, 'cloud', [PROJ, OPS]);

  const clickupFake = await startFakeRest({
    name: 'clickup',
    prefix: '/api/v2',
    unauthorized: { status: 401, body: { err: 'Oauth token not found', ECODE: 'OAUTH_019' } },
    notFound: { status: 404, body: { err: 'Route not found', ECODE: 'APP_001' } },
  });
  for (const spec of TEAM.clickupLists) {
    clickupFake.route('GET', `/list/${spec.id}`, {
      status: 200,
      body: list(spec.id, spec.name, CLICKUP_STATUSES),
    });
    clickupFake.route('GET', `/list/${spec.id}/field`, { status: 200, body: { fields: [] } });
    clickupFake.route('GET', `/list/${spec.id}/member`, { status: 200, body: { members: MEMBERS } });
  }
  clickupFake.route('GET', '/team', { status: 200, body: teams([...MEMBERS, member(185, 'Cy Diaz')]) });
  clickupFake.route('GET', '/user', { status: 200, body: { user: MEMBERS[0] } });
  return { githubFake, gitlabFake, jiraFake, clickupFake };
}

/** Every page of tools/list, as a client that follows the cursor sees it. */
async function listAll(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/** The metadata every provider loads at start is in the schemas (enums of statuses, labels and projects). */
function enriched(tools: readonly Tool[]): boolean {
  const text = JSON.stringify(tools);
  return (
    text.includes('needs-triage') && // GitHub labels
    text.includes('tech-debt') && // GitLab labels
    text.includes('"In Progress"') && // Jira statuses
    text.includes('"in review"') // ClickUp statuses
  );
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the host and its fakes, lists the tools once the metadata has arrived (a list_changed or a poll
 * every 20 ms, at most `waitMs`), and stops everything. Rejects when the metadata never shows.
 */
export async function buildTeamCatalog(waitMs = 10_000): Promise<TeamCatalog> {
  const root = await workspaceTree();
  const fakes = await startFakes();
  githubTokens(fakes);
  const host = createHost({
    logger: createMemoryLogger(),
    planner: { enabled: false },
    plugins: [
      { plugin: workspace, options: { root } },
      {
        plugin: github,
        options: {
          repo: TEAM.githubRepo,
          base_url: fakes.githubFake.url,
          token_env: ENV.github,
          retries: 0,
          throttle: false,
        },
      },
      {
        plugin: gitlab,
        options: {
          project: TEAM.gitlabProject,
          base_url: fakes.gitlabFake.url,
          token_env: ENV.gitlab,
          retries: 0,
        },
      },
      {
        plugin: jira,
        options: {
          base_url: fakes.jiraFake.url,
          flavor: 'cloud',
          email_env: ENV.jiraEmail,
          token_env: ENV.jiraToken,
          projects: [...TEAM.jiraProjects],
          retries: 0,
        },
      },
      {
        plugin: clickup,
        options: {
          lists: TEAM.clickupLists.map((l) => l.id),
          token_env: ENV.clickup,
          base_url: `${fakes.clickupFake.url}/api/v2`,
          retries: 0,
        },
      },
    ],
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await host.connect(serverSide);
  const client = new Client({ name: 'team-catalog', version: '1.0.0' }, { capabilities: {} });
  await client.connect(clientSide);
  try {
    const deadline = Date.now() + waitMs;
    let tools = await listAll(client);
    while (!enriched(tools)) {
      if (Date.now() > deadline) throw new Error('the providers’ metadata never reached the tool schemas');
      await settle(20);
      tools = await listAll(client);
    }
    const stable = withStableOrigins(tools, fakes);
    return { tools: stable, listResult: { tools: stable } };
  } finally {
    await client.close();
    await host.close();
    await Promise.all(Object.values(fakes).map((fake) => fake.close()));
    await rm(root, { recursive: true, force: true });
  }
}

const STABLE_HOSTS = {
  githubFake: 'api.github.com',
  gitlabFake: 'gitlab.com',
  jiraFake: 'acme.atlassian.net',
  clickupFake: 'api.clickup.com',
} as const;

function withStableOrigins(tools: Tool[], fakes: Awaited<ReturnType<typeof startFakes>>): Tool[] {
  let text = JSON.stringify(tools);
  for (const [fake, host] of Object.entries(STABLE_HOSTS)) {
    const loopback = new URL(fakes[fake as keyof typeof STABLE_HOSTS].url).host;
    text = text.split(loopback).join(host);
  }
  return JSON.parse(text) as Tool[];
}

function githubTokens(fakes: Awaited<ReturnType<typeof startFakes>>): void {
  const tokens = {
    [ENV.github]: 'ghp_bench0000000000000000000000000000',
    [ENV.gitlab]: 'glpat-bench-token',
    [ENV.jiraToken]: 'ATATT-bench-token',
    [ENV.jiraEmail]: 'mia@example.com',
    [ENV.clickup]: 'pk_bench_token',
  };
  for (const [name, value] of Object.entries(tokens)) process.env[name] = value;
  fakes.githubFake.expectToken(`token ${tokens[ENV.github]}`);
  fakes.gitlabFake.expectAuth('private-token', tokens[ENV.gitlab]);
  fakes.jiraFake.expectAuth(
    'authorization',
    `Basic ${Buffer.from(`${tokens[ENV.jiraEmail]}:${tokens[ENV.jiraToken]}`).toString('base64')}`,
  );
  fakes.clickupFake.expectAuth('authorization', tokens[ENV.clickup]);
}
