// The planner replay's GitLab: one project's merge requests, issues, pipelines and notes held in memory and
// served in GitLab's REST shapes by two loopback servers sharing that state: the counted one (latency
// injected per request, its request log is the run's upstream traffic) and the reference one (no latency,
// its own log), which the staleness check reads fresh answers from.
import type { FakeGitLab, RecordedRequest, FakeReply } from '../../test/support/fake-gitlab.js';
import { paged, startFakeGitLab } from '../../test/support/fake-gitlab.js';
import { gl } from '../../test/support/fake-gitlab-bodies.js';
import { createRandom, mixSeed } from './corpus-sessions.js';
import { latencyFor, sleep } from './planner-replay-plugins.js';

export const REPLAY_PROJECT = 'bench/replay/shop';
export const MERGE_REQUESTS = 30;
export const ISSUES = 40;
const MAIN_PIPELINE = 5000;
const JOB_NAMES = ['build', 'lint', 'unit', 'integration', 'deploy'] as const;
const WORDS = [
  'crash',
  'login',
  'checkout',
  'timeout',
  'cache',
  'billing',
  'search',
  'export',
  'retry',
  'ui',
];
const FILES = ['src/orders/service.ts', 'src/auth/store.ts', 'src/search/routes.ts', 'src/shared/http.ts'];

type Body = Record<string, unknown>;

interface Note {
  id: number;
  body: string;
  createdAt: string;
  position?: { new_path: string; new_line: number; old_line: null };
}

interface MergeRequest {
  iid: number;
  title: string;
  state: 'opened' | 'merged';
  discussions: { id: string; notes: Note[] }[];
  diffs: Body[];
}

interface Issue {
  iid: number;
  title: string;
  description: string;
  state: 'opened' | 'closed';
  createdAt: string;
  updatedAt: string;
  notes: Note[];
}

interface Job {
  id: number;
  name: string;
  status: 'success' | 'failed';
}

/** The project as it stands; only the agent's own writes change it. */
interface Store {
  mergeRequests: Map<number, MergeRequest>;
  issues: Map<number, Issue>;
  /** By ref: "main", "feature-<iid>". */
  pipelines: Map<string, { id: number; status: string; jobs: Job[] }>;
  jobs: Map<number, Job>;
  nextNote: number;
  clock: number;
}

function tick(store: Store): string {
  store.clock += 1;
  return new Date(Date.UTC(2024, 0, 1) + store.clock * 60_000).toISOString();
}

function title(random: () => number, what: string): string {
  const word = () => WORDS[Math.floor(random() * WORDS.length)] ?? 'cache';
  return `${capitalise(word())} ${what}: ${word()} ${word()}`;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function createStore(seed: number): Store {
  const random = createRandom(mixSeed(seed, 'gitlab'));
  const store: Store = {
    mergeRequests: new Map(),
    issues: new Map(),
    pipelines: new Map(),
    jobs: new Map(),
    nextNote: 100,
    clock: 0,
  };
  const note = (body: string, onFile: boolean): Note => ({
    id: store.nextNote++,
    body,
    createdAt: tick(store),
    ...(onFile
      ? {
          position: {
            new_path: FILES[Math.floor(random() * FILES.length)] ?? 'src/shared/http.ts',
            new_line: 1 + Math.floor(random() * 60),
            old_line: null,
          },
        }
      : {}),
  });
  const pipeline = (ref: string, id: number) => {
    const jobs = JOB_NAMES.map((name, j) => ({
      id: id * 10 + j,
      name,
      status: random() < 0.3 ? ('failed' as const) : ('success' as const),
    }));
    for (const job of jobs) store.jobs.set(job.id, job);
    store.pipelines.set(ref, {
      id,
      status: jobs.some((j) => j.status === 'failed') ? 'failed' : 'success',
      jobs,
    });
  };
  pipeline('main', MAIN_PIPELINE);
  for (let iid = 1; iid <= MERGE_REQUESTS; iid++) {
    const threads = 1 + Math.floor(random() * 4);
    store.mergeRequests.set(iid, {
      iid,
      title: title(random, 'change'),
      state: iid % 7 === 0 ? 'merged' : 'opened',
      discussions: Array.from({ length: threads }, (_, t) => ({
        id: `d${iid}x${t}`,
        notes: Array.from({ length: 1 + Math.floor(random() * 2) }, (_n, n) =>
          note(`Review note ${t}.${n} on !${iid}`, n === 0 && random() < 0.5),
        ),
      })),
      diffs: Array.from({ length: 2 + Math.floor(random() * 5) }, (_, f) =>
        gl.diff(`src/${WORDS[(iid + f) % WORDS.length] ?? 'ui'}/change-${f}.ts`, {
          diff: `@@ -1,3 +1,4 @@\n import a\n-const x = ${f};\n+const x = ${f + iid};\n+const y = ${iid};\n`,
        }),
      ),
    });
    pipeline(`feature-${iid}`, MAIN_PIPELINE + iid);
  }
  for (let iid = 1; iid <= ISSUES; iid++) {
    const created = tick(store);
    store.issues.set(iid, {
      iid,
      title: title(random, 'issue'),
      description: `Steps to reproduce ${iid}.`,
      state: iid % 6 === 0 ? 'closed' : 'opened',
      createdAt: created,
      updatedAt: created,
      notes: Array.from({ length: Math.floor(random() * 6) }, (_, n) =>
        note(`Comment ${n} on #${iid}`, false),
      ),
    });
  }
  return store;
}

function noteBody(note: Note, type: 'Issue' | 'MergeRequest', iid: number): Body {
  return gl.note(note.id, {
    body: note.body,
    created_at: note.createdAt,
    noteable_type: type,
    noteable_iid: iid,
    ...(note.position ? { position: note.position } : {}),
  });
}

function mergeRequestBody(mr: MergeRequest): Body {
  return gl.mergeRequest(mr.iid, {
    title: mr.title,
    state: mr.state,
    project: REPLAY_PROJECT,
    user_notes_count: mr.discussions.reduce((sum, d) => sum + d.notes.length, 0),
  });
}

function issueBody(issue: Issue): Body {
  return gl.issue(issue.iid, {
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    user_notes_count: issue.notes.length,
    project: REPLAY_PROJECT,
  });
}

const notFound = (what: string): FakeReply => gl.error(404, `404 ${what} Not Found`);

/** The write forms gitbeaker sends: JSON or a form, fields by their API names. */
function fieldsOf(request: RecordedRequest): Record<string, unknown> {
  return typeof request.body === 'object' && request.body !== null
    ? (request.body as Record<string, unknown>)
    : {};
}

function stateFilter(query: Record<string, string>): (state: string) => boolean {
  const wanted = query.state ?? 'all';
  return (state) => wanted === 'all' || wanted === state;
}

/** Every route of the replay, answering from `store`. */
function addRoutes(fake: FakeGitLab, store: Store, wrap: (handler: Handler) => Handler): void {
  const route = (method: string, pattern: string, handler: Handler) =>
    fake.route(method, pattern, wrap(handler));
  const list = (request: RecordedRequest, items: readonly unknown[]) => paged(items, request, fake.url);
  const mr = (params: Record<string, string>) => store.mergeRequests.get(Number(params.iid));
  const issue = (params: Record<string, string>) => store.issues.get(Number(params.iid));
  const pipelineReply = (request: RecordedRequest, ref: string) => {
    const found = store.pipelines.get(ref);
    return list(
      request,
      found ? [gl.pipeline(found.id, { status: found.status, ref, project: REPLAY_PROJECT })] : [],
    );
  };

  route('GET', '/projects/:project', () => ({ status: 200, body: gl.project(REPLAY_PROJECT, 'main') }));
  route('GET', '/projects/:project/labels', (request) =>
    list(
      request,
      ['bug', 'feature'].map((n) => gl.label(n)),
    ),
  );
  route('GET', '/projects/:project/milestones', (request) => list(request, [gl.milestone(11, 'v1.0')]));

  route('GET', '/projects/:project/merge_requests', (request) => {
    const keep = stateFilter(request.query);
    const items = [...store.mergeRequests.values()]
      .filter((m) => keep(m.state))
      .sort((a, b) => b.iid - a.iid);
    return list(request, items.map(mergeRequestBody));
  });
  route('GET', '/projects/:project/merge_requests/:iid', (_r, params) => {
    const found = mr(params);
    return found ? { status: 200, body: mergeRequestBody(found) } : notFound('Merge Request');
  });
  route('GET', '/projects/:project/merge_requests/:iid/discussions', (request, params) => {
    const found = mr(params);
    if (!found) return notFound('Merge Request');
    return list(
      request,
      found.discussions.map((d) =>
        gl.discussion(
          d.id,
          d.notes.map((n) => noteBody(n, 'MergeRequest', found.iid)),
        ),
      ),
    );
  });
  route('GET', '/projects/:project/merge_requests/:iid/diffs', (request, params) => {
    const found = mr(params);
    return found ? list(request, found.diffs) : notFound('Merge Request');
  });
  route('GET', '/projects/:project/merge_requests/:iid/pipelines', (request, params) => {
    const found = mr(params);
    return found ? pipelineReply(request, `feature-${found.iid}`) : notFound('Merge Request');
  });
  route('POST', '/projects/:project/merge_requests/:iid/notes', (request, params) => {
    const found = mr(params);
    if (!found) return notFound('Merge Request');
    const note: Note = {
      id: store.nextNote++,
      body: String(fieldsOf(request).body ?? ''),
      createdAt: tick(store),
    };
    found.discussions.push({ id: `d${found.iid}n${note.id}`, notes: [note] });
    return { status: 201, body: noteBody(note, 'MergeRequest', found.iid) };
  });

  route('GET', '/projects/:project/issues', (request) => {
    const keep = stateFilter(request.query);
    const search = request.query.search?.toLowerCase();
    const byUpdated = request.query.order_by === 'updated_at';
    const items = [...store.issues.values()]
      .filter((i) => keep(i.state) && (search === undefined || i.title.toLowerCase().includes(search)))
      .sort((a, b) => (byUpdated ? b.updatedAt.localeCompare(a.updatedAt) : 0) || b.iid - a.iid);
    return list(request, items.map(issueBody));
  });
  route('GET', '/projects/:project/issues/:iid', (_r, params) => {
    const found = issue(params);
    return found ? { status: 200, body: issueBody(found) } : notFound('Issue');
  });
  route('GET', '/projects/:project/issues/:iid/notes', (request, params) => {
    const found = issue(params);
    return found
      ? list(
          request,
          found.notes.map((n) => noteBody(n, 'Issue', found.iid)),
        )
      : notFound('Issue');
  });
  route('GET', '/projects/:project/issues/:iid/links', (request) => list(request, []));
  route('POST', '/projects/:project/issues', (request) => {
    const fields = fieldsOf(request);
    const iid = Math.max(...store.issues.keys()) + 1;
    const created = tick(store);
    const fresh: Issue = {
      iid,
      title: String(fields.title ?? `Issue ${iid}`),
      description: String(fields.description ?? ''),
      state: 'opened',
      createdAt: created,
      updatedAt: created,
      notes: [],
    };
    store.issues.set(iid, fresh);
    return { status: 201, body: issueBody(fresh) };
  });
  route('PUT', '/projects/:project/issues/:iid', (request, params) => {
    const found = issue(params);
    if (!found) return notFound('Issue');
    const fields = fieldsOf(request);
    if (typeof fields.title === 'string') found.title = fields.title;
    if (typeof fields.description === 'string') found.description = fields.description;
    if (fields.state_event === 'close') found.state = 'closed';
    if (fields.state_event === 'reopen') found.state = 'opened';
    found.updatedAt = tick(store);
    return { status: 200, body: issueBody(found) };
  });
  route('POST', '/projects/:project/issues/:iid/notes', (request, params) => {
    const found = issue(params);
    if (!found) return notFound('Issue');
    const note: Note = {
      id: store.nextNote++,
      body: String(fieldsOf(request).body ?? ''),
      createdAt: tick(store),
    };
    found.notes.push(note);
    found.updatedAt = note.createdAt;
    return { status: 201, body: noteBody(note, 'Issue', found.iid) };
  });

  route('GET', '/projects/:project/pipelines', (request) =>
    pipelineReply(request, request.query.ref ?? 'main'),
  );
  route('GET', '/projects/:project/pipelines/:id/jobs', (request, params) => {
    const found = [...store.pipelines.entries()].find(([, p]) => p.id === Number(params.id));
    if (!found) return notFound('Pipeline');
    const [ref, pipeline] = found;
    return list(
      request,
      pipeline.jobs.map((job) => ({
        ...gl.job(job.id, job.name, job.status, {
          stage: job.name === 'deploy' ? 'deploy' : 'test',
          pipelineId: pipeline.id,
        }),
        ref,
      })),
    );
  });
  route('GET', '/projects/:project/jobs/:id/trace', (_r, params) => {
    const job = store.jobs.get(Number(params.id));
    if (!job) return notFound('Job');
    const lines = Array.from({ length: 120 }, (_, i) => `[${job.name}] step ${i + 1}: ok`);
    if (job.status === 'failed')
      lines.push(`[${job.name}] ERROR: assertion failed in job ${job.id}`, 'Job failed: exit code 1');
    else lines.push('Job succeeded');
    return { status: 200, body: `${lines.join('\n')}\n` };
  });
}

type Handler = (request: RecordedRequest, params: Record<string, string>) => FakeReply | Promise<FakeReply>;

export interface ReplayGitLab {
  /** The upstream the host under test talks to: latency per request, its log is the run's traffic. */
  counted: FakeGitLab;
  /** The same data without latency, for fresh reference reads; its log is not counted. */
  reference: FakeGitLab;
  /** Requests the counted server is still answering. */
  inFlight(): number;
  /** Resolves once the counted server has answered the plugin's start-up metadata reads (or after `timeoutMs`). */
  metadataLoaded(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

const METADATA = /^\/api\/v4\/projects\/[^/]+(\/labels|\/milestones)?$/;

export interface ReplayGitLabOptions {
  seed: number;
  /** Uniform latency range per request, unscaled ms. */
  latencyMs: readonly [number, number];
  timeScale: number;
}

/** Both servers over one fresh store: each run starts from the same project. */
export async function startReplayGitLab(options: ReplayGitLabOptions): Promise<ReplayGitLab> {
  const store = createStore(options.seed);
  const counted = await startFakeGitLab();
  const reference = await startFakeGitLab();
  let inFlight = 0;
  let metadataAnswered = 0;
  const [low, high] = options.latencyMs;
  addRoutes(counted, store, (handler) => async (request, params) => {
    inFlight += 1;
    try {
      const key = `${request.method} ${request.path}?${new URLSearchParams(
        Object.entries(request.query).sort(([a], [b]) => (a < b ? -1 : 1)),
      ).toString()}`;
      await sleep(latencyFor(options.seed, key, low, high, options.timeScale));
      return await handler(request, params);
    } finally {
      inFlight -= 1;
      if (request.method === 'GET' && METADATA.test(request.path)) metadataAnswered += 1;
    }
  });
  addRoutes(reference, store, (handler) => handler);
  return {
    counted,
    reference,
    inFlight: () => inFlight,
    async metadataLoaded(timeoutMs) {
      const until = performance.now() + timeoutMs;
      while (metadataAnswered < 3 && performance.now() < until) await sleep(5);
      // One more turn, for the plugin to take the answers in.
      await sleep(5);
    },
    close: async () => {
      await Promise.all([counted.close(), reference.close()]);
    },
  };
}

/** Keys the agent falls back to when it does not pick from a listing. */
export const REPLAY_JOB_IDS: readonly number[] = [
  MAIN_PIPELINE,
  ...Array.from({ length: MERGE_REQUESTS }, (_, i) => MAIN_PIPELINE + i + 1),
].flatMap((pipeline) => JOB_NAMES.map((_n, j) => pipeline * 10 + j));
