// The github plugin's enricher: fits the unified issue tools to GitHub and to the repository's labels and milestones.
import type { ToolEnricher, ToolSchema } from '../../enrich/index.js';
import { TRACKER_ONLY_FIELDS, trackerValueModel } from '../kit/index.js';
import type { MetadataStore } from './metadata.js';
import type { GitHubSettings } from './options.js';

/** Parameters of the unified tools that GitHub has no counterpart for, besides the tracker-only fields. */
const UNSUPPORTED: Readonly<Record<string, readonly string[]>> = {
  // Sub-issues and linked issues are not read yet.
  get_issue: ['include_relations'],
};

function fitToRepository(schema: ToolSchema, metadata: MetadataStore, toolName: string): void {
  const data = metadata.current();
  if (!data) return;
  if (data.labels.length && schema.param('labels')) schema.setEnum('labels', data.labels);
  if (schema.param('milestone')) {
    const titles = [...data.milestones.keys()];
    // "" clears the milestone of an existing issue; a new issue simply leaves it out.
    const values = toolName === 'update_issue' ? [...titles, ''] : titles;
    if (values.length) schema.setEnum('milestone', values);
  }
}

export function createGitHubEnricher(settings: GitHubSettings, metadata: MetadataStore): ToolEnricher {
  return {
    name: 'github',
    supportedCategories: () => ['issue_tracker'],
    enrichSchema(tool, schema) {
      schema.removeParams([...TRACKER_ONLY_FIELDS, ...(UNSUPPORTED[tool.name] ?? [])]);
      fitToRepository(schema, metadata, tool.name);
    },
    // GitHub takes the unified issue arguments as they are; the tools map them to the REST API.
    transformArgs: () => {},
    valueModel: (tool) => trackerValueModel(tool, settings.apiHost),
    rateLimitHost: () => settings.apiHost,
    watch: (changed) => metadata.onChange(changed),
  };
}
