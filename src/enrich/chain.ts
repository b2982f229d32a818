// Which enrichers a tool goes through, in order, and whether its category lets it be listed.
import type { ToolCategory, ToolEnricher, ToolRef } from '../contract/index.js';

/** An enricher in a tool's chain, with the name messages give it. */
export interface ChainLink {
  enricher: ToolEnricher;
  /** `"jira-fields" of plugin "jira"` or `"format" (global)`. */
  label: string;
}

/** An enricher registered for every plugin's tools. */
export interface GlobalEnricher {
  enricher: ToolEnricher;
  label: string;
}

export interface ToolChain {
  links: ChainLink[];
  /** False for a tool with a category that no enricher in its chain serves. */
  visible: boolean;
}

/**
 * A plugin's own enrichers come first, then the global ones. An enricher sees a tool when it serves the
 * tool's category, when it returns no categories (cross-cutting), or, for the plugin's own enrichers,
 * when the tool has no category. Only an enricher that names the category makes a categorised tool visible.
 */
export function chainFor(
  ref: ToolRef,
  scoped: readonly ChainLink[],
  globals: readonly GlobalEnricher[],
  /** Undefined for an enricher whose categories could not be read: it sits this build out. */
  categoriesOf: (enricher: ToolEnricher) => readonly ToolCategory[] | undefined,
): ToolChain {
  const links: ChainLink[] = [];
  let served = false;
  const consider = (link: ChainLink, ownPlugin: boolean) => {
    const categories = categoriesOf(link.enricher);
    if (categories === undefined) return;
    const serves = ref.category !== undefined && categories.includes(ref.category);
    served ||= serves;
    if (serves || categories.length === 0 || (ownPlugin && ref.category === undefined)) links.push(link);
  };
  for (const link of scoped) consider(link, true);
  for (const link of globals) consider(link, false);
  return { links, visible: ref.category === undefined || served };
}
