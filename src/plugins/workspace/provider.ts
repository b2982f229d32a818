// Assembles the workspace provider: the four read-only tools, their enricher, the file resource template and path completion.
import { errors, type PluginProvider } from '../../contract/index.js';
import { completePath } from './complete.js';
import { createWorkspaceEnricher } from './enricher.js';
import { createGlobTool } from './glob.js';
import { createGrepTool } from './grep.js';
import { createListDirectoryTool } from './list-directory.js';
import type { WorkspaceOptions } from './options.js';
import { openRoot } from './paths.js';
import { createReadFileTool } from './read-file.js';
import { fileTemplate, readFileResource } from './resource.js';
import type { Workspace } from './workspace.js';

export async function createWorkspaceProvider(options: WorkspaceOptions): Promise<PluginProvider> {
  const ws: Workspace = {
    root: await openRoot(options.root, options.allow_system_root),
    maxReadBytes: options.max_read_bytes,
    maxResults: options.max_results,
  };
  const tools = [createGlobTool(ws), createGrepTool(ws), createReadFileTool(ws), createListDirectoryTool(ws)];
  const byName = new Map(tools.map((tool) => [tool.descriptor.name, tool]));
  const enricher = createWorkspaceEnricher(ws.root);
  return {
    enrichers: () => [enricher],
    tools: () => tools.map((tool) => tool.descriptor),
    async callTool(name, args, ctx) {
      const tool = byName.get(name);
      if (tool === undefined) throw errors.toolNotFound(name);
      return tool.call(args, ctx);
    },
    resourceTemplates: () => [fileTemplate],
    readResource: (uri, ctx) => readFileResource(ws, uri, ctx),
    complete: (req, ctx) => completePath(ws, req, ctx),
  };
}
