// The conformance fixture plugin: the tools, resources and prompts the official MCP conformance suite exercises.
// Mount it with prefix "" so its local names are the published ones the suite asks for (off by default).
import { definePlugin, errors, type PluginProvider } from '../../contract/index.js';
import { complete } from './completion.js';
import { parseConformanceOptions } from './options.js';
import { createCatalogChanges } from './catalog-changes.js';
import { CONTENT_TOOLS } from './content-tools.js';
import { ELICITATION_TOOLS } from './elicitation-tools.js';
import { INPUT_TOOLS } from './input-tools.js';
import type { FixtureTool } from './fixture-tool.js';
import { PROMPTS, getPrompt } from './prompts.js';
import { RESOURCE_TEMPLATES, listResources, readResource } from './resources.js';
import { SESSION_TOOLS } from './session-tools.js';
import { TASK_TOOLS } from './task-tools.js';
import { createWatchedResource } from './watched-resource.js';

export { ConformanceOptionsSchema, type ConformanceOptions } from './options.js';

const FIXTURE_TOOLS: readonly FixtureTool[] = [
  ...CONTENT_TOOLS,
  ...SESSION_TOOLS,
  ...ELICITATION_TOOLS,
  ...INPUT_TOOLS,
  ...TASK_TOOLS,
];

export default definePlugin({
  id: 'conformance',
  version: '0.1.0',
  build(ctx): PluginProvider {
    const options = parseConformanceOptions(ctx.config);
    const watched = createWatchedResource({
      intervalMs: options.watch_interval_ms,
      notifyUpdated: (uri) => ctx.notifyResourceUpdated(uri),
      logger: ctx.logger,
    });
    const changes = createCatalogChanges((kind) => ctx.notifyListChanged(kind));
    const fixed = [...FIXTURE_TOOLS, ...changes.tools];
    const listed = () => [...fixed, ...changes.extraTools()];

    return {
      // Copies, so that enrichers editing a listed schema never edit the fixture itself.
      tools: () => listed().map((tool) => structuredClone(tool.descriptor)),
      callTool: async (name, args, requestCtx) => {
        const tool = listed().find((candidate) => candidate.descriptor.name === name);
        if (!tool) throw errors.toolNotFound(name);
        return tool.run(args, requestCtx);
      },
      resources: () => listResources(watched),
      resourceTemplates: () => [...RESOURCE_TEMPLATES],
      readResource: async (uri) => readResource(uri, watched),
      prompts: () => structuredClone([...PROMPTS, ...changes.extraPrompts()]),
      getPrompt: async (name, args, requestCtx) =>
        changes.getExtraPrompt(name) ?? getPrompt(name, args, requestCtx),
      complete: async (req) => complete(req),
      start: async () => watched.start(),
      shutdown: async () => watched.stop(),
    };
  },
});
