// What every jira tool shares: its dependencies, and the key and project readers that refuse bad input before any request.
import type { JiraClient } from './client.js';
import { parseIssueKey } from './keys.js';
import type { MetadataStore } from './metadata.js';
import type { JiraSettings } from './options.js';

export interface ToolDeps {
  client: JiraClient;
  settings: JiraSettings;
  metadata: MetadataStore;
}

/** The issue key of a parameter; a bare number means an issue of the only configured project. */
export function keyArg(deps: ToolDeps, value: unknown, param = 'key'): string {
  const { projects } = deps.settings;
  return parseIssueKey(value, param, projects.length === 1 ? projects[0] : undefined);
}

/** The custom fields get_issue shows, by id → display name, from the metadata of every configured project. */
export function customFieldNames(deps: ToolDeps): Map<string, string> {
  const names = new Map<string, string>();
  for (const project of deps.metadata.current()?.projects.values() ?? []) {
    for (const field of project.customFields) names.set(field.id, field.name);
  }
  return names;
}
