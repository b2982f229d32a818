// The project's labels, active milestones and default branch, loaded in the background and kept fresh: the enums of the schemas.
import type { Logger } from '../../host/index.js';
import { type GitLabClient, listPage } from './client.js';
import type { GitLabSettings } from './options.js';

export interface ProjectMetadata {
  /** Empty when the project has more labels than are worth an enum (over 1000). */
  labels: string[];
  /** Active milestones of the project and its groups: title → global id (what milestone_id takes). */
  milestones: Map<string, number>;
  defaultBranch?: string;
  /** e.g. https://gitlab.com/group/project, for links to notes and diffs. */
  webUrl?: string;
}

export interface MetadataStore {
  /** Undefined until the first load succeeds. */
  current(): ProjectMetadata | undefined;
  /** Loads now and then every TTL; never throws (failures are logged and retried at the next tick). */
  start(): void;
  /** Stops the timer, aborts a load in flight, and resolves once it has settled. */
  stop(): Promise<void>;
  /** Called after a load that changed labels or milestones. */
  onChange(listener: () => void): void;
}

/** Most pages of labels or milestones read per load (100 each). */
const MAX_PAGES = 10;

const fingerprint = (data: ProjectMetadata) => JSON.stringify([data.labels, [...data.milestones]]);

/** Every item, or undefined when there are more than MAX_PAGES pages (an enum of part of them would refuse the rest). */
async function allPages<T>(fetch: (page: number) => Promise<unknown>): Promise<T[] | undefined> {
  const items: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const result = await listPage<T>(fetch(page));
    items.push(...result.items);
    if (!result.hasNext) return items;
  }
  return undefined;
}

export function createMetadataStore(
  client: GitLabClient,
  settings: GitLabSettings,
  logger: Logger,
): MetadataStore {
  let data: ProjectMetadata | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let loading: Promise<void> = Promise.resolve();
  const stopping = new AbortController();
  const listeners: (() => void)[] = [];
  const { projectId } = settings;

  const load = async () => {
    const api = client.api(stopping.signal);
    try {
      const [project, labels, milestones] = await Promise.all([
        api.projects.show(projectId) as Promise<{ default_branch?: string | null; web_url?: string }>,
        allPages<{ name: string }>((page) =>
          api.labels.all(projectId, { perPage: 100, page, showExpanded: true }),
        ),
        allPages<{ id: number; title: string }>((page) => {
          // include_ancestors (GitLab 16.7+) adds the groups' milestones, which project issues can take too.
          const options = { state: 'active', includeAncestors: true, perPage: 100, page, showExpanded: true };
          return api.milestones.all(projectId, options);
        }),
      ]);
      const next: ProjectMetadata = {
        labels: (labels ?? []).map((label) => label.name),
        milestones: new Map((milestones ?? []).map((milestone) => [milestone.title, milestone.id])),
        ...(project.default_branch ? { defaultBranch: project.default_branch } : {}),
        ...(project.web_url ? { webUrl: project.web_url } : {}),
      };
      const changed = data === undefined || fingerprint(data) !== fingerprint(next);
      data = next;
      if (changed && !stopped) for (const listener of listeners) listener();
    } catch (error) {
      if (stopped) return;
      logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        `cannot load labels and milestones of ${settings.projectName}; schemas stay generic until the next try`,
      );
    }
  };

  return {
    current: () => data,
    start() {
      const tick = () => {
        loading = load().finally(() => {
          if (!stopped) timer = setTimeout(tick, settings.metadataTtlMs).unref();
        });
      };
      tick();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      stopping.abort();
      await loading;
    },
    onChange: (listener) => void listeners.push(listener),
  };
}
