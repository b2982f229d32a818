// The workspace plugin's enricher: serves the `workspace` category, and gives the planner each tool's value model.
import type { ToolEnricher, ToolRef, ToolValueModel } from '../../enrich/index.js';

/**
 * The read_file follow-up of a search: where the result's paths are, and how often an agent reads a file
 * right after. Probabilities are Glob→Read (0.32) and Grep→Read (0.35) at lag 1 in the agent tool-call
 * corpus (../shared/data/agent-corpus: about 3,185 Claude Code sessions).
 */
const READ_FILE_FOLLOW_UPS: Readonly<Record<string, { projection: string; probability: number }>> = {
  glob: { projection: 'paths[*]', probability: 0.32 },
  grep: { projection: 'matches[*].path', probability: 0.35 },
};

/** Typical answer sizes in KB: the corpus's p90 response sizes (Glob 4 KB, Grep 2.6 KB, Read 12.7 KB). */
const TYPICAL_KB: Readonly<Record<string, number>> = { glob: 4, grep: 3, read_file: 13, list_directory: 4 };

/** The same tool name under the caller's prefix: follow-ups publish where their source does. */
function sibling(tool: ToolRef, local: string): string {
  return `${tool.published.slice(0, tool.published.length - tool.name.length)}${local}`;
}

export function createWorkspaceEnricher(): ToolEnricher {
  return {
    name: 'workspace',
    supportedCategories: () => ['workspace'],
    // The tools' schemas are exact already: there is nothing of the user's world to fit them to.
    enrichSchema: () => {},
    transformArgs: () => {},
    valueModel(tool): ToolValueModel | undefined {
      const typicalKb = TYPICAL_KB[tool.name];
      if (typicalKb === undefined) return undefined;
      const followUp = READ_FILE_FOLLOW_UPS[tool.name];
      return {
        valueClass: tool.name === 'read_file' ? 'critical' : 'supporting',
        sideEffect: 'read_only',
        cost: { typicalKb },
        followUp: followUp ? [{ tool: sibling(tool, 'read_file'), ...followUp, projectionArg: 'path' }] : [],
        invalidates: [],
        // One file tree for every client session.
        sessionIndependent: true,
      };
    },
  };
}
