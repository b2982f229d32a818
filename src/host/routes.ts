// The exact route table from published tool names, prompt names and URI schemes to mounted plugins.
import type {
  Prompt,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/server';
import {
  errors,
  type McpTool,
  type ToolDescriptor,
  type ToolEnricher,
  type ToolRef,
} from '../contract/index.js';
import type { Mount } from './mount.js';
import {
  type ToolPublisher,
  checkPromptName,
  checkPublishedToolName,
  publishName,
  publishUnchanged,
  publishUri,
  uriScheme,
} from './names.js';

export interface ToolRoute {
  mount: Mount;
  local: string;
  published: string;
  descriptor: ToolDescriptor;
  ref: ToolRef;
}

/** A published tool as the enrichment pipeline sees it: its MCP form, its identity, its plugin's enrichers. */
export interface PublishedToolEntry {
  /** As published before enrichment: public name, no category. */
  tool: McpTool;
  ref: ToolRef;
  /** The owning plugin's enrichers, scoped to its tools. */
  enrichers: readonly ToolEnricher[];
  /** How messages name the owning plugin: `"gh" (github)`. */
  owner: string;
}

export interface PromptRoute {
  mount: Mount;
  local: string;
  published: string;
}

export interface RouteTable {
  tools: ReadonlyMap<string, ToolRoute>;
  prompts: ReadonlyMap<string, PromptRoute>;
  schemes: ReadonlyMap<string, Mount>;
}

/**
 * Builds the table from every mount's catalog snapshot, each tool under the name `publish` gives it (a tool it
 * leaves out gets no route); any collision or bad name throws, naming both owners.
 */
export function buildRouteTable(
  mounts: readonly Mount[],
  publish: ToolPublisher = publishUnchanged,
): RouteTable {
  const tools = new Map<string, ToolRoute>();
  const prompts = new Map<string, PromptRoute>();
  const schemes = new Map<string, Mount>();

  for (const mount of mounts) {
    const owner = `plugin ${mount.label}`;
    for (const descriptor of mount.catalog.tools) {
      const published = publish(mount, descriptor.name);
      if (published === undefined) continue;
      checkPublishedToolName(published, owner);
      const previous = tools.get(published);
      if (previous) throw errors.nameConflict('tool', published, `plugin ${previous.mount.label}`, owner);
      tools.set(published, {
        mount,
        local: descriptor.name,
        published,
        descriptor,
        ref: toolRef(mount, descriptor, published),
      });
    }
    for (const prompt of mount.catalog.prompts) {
      const published = publishName(mount.prefix, prompt.name);
      checkPromptName(published, owner);
      const previous = prompts.get(published);
      if (previous) throw errors.nameConflict('prompt', published, `plugin ${previous.mount.label}`, owner);
      prompts.set(published, { mount, local: prompt.name, published });
    }
    for (const scheme of ownedSchemes(mount)) {
      const previous = schemes.get(scheme);
      if (previous && previous !== mount) {
        throw errors.nameConflict('URI scheme', scheme, `plugin ${previous.label}`, owner);
      }
      schemes.set(scheme, mount);
    }
  }
  return { tools, prompts, schemes };
}

/** A prefixed plugin owns its whole scheme; a prefix-less one owns the schemes its URIs use. */
function ownedSchemes(mount: Mount): Set<string> {
  if (mount.scheme !== undefined) return new Set([mount.scheme]);
  const found = new Set<string>();
  const uris = [
    ...mount.catalog.resources.map((r) => r.uri),
    ...mount.catalog.templates.map((t) => t.uriTemplate),
  ];
  for (const uri of uris) {
    const scheme = uriScheme(uri);
    if (scheme === undefined) {
      throw errors.nameInvalid(
        'resource URI',
        uri,
        `plugin ${mount.label}`,
        'a plugin without prefix must use absolute URIs',
      );
    }
    found.add(scheme);
  }
  return found;
}

/** Frozen: every enricher of the tool gets this one object. */
function toolRef(mount: Mount, descriptor: ToolDescriptor, published: string): ToolRef {
  return Object.freeze({
    plugin: mount.name,
    name: descriptor.name,
    published,
    ...(descriptor.category === undefined ? {} : { category: descriptor.category }),
    ...(descriptor.annotations === undefined
      ? {}
      : { annotations: Object.freeze({ ...descriptor.annotations }) }),
    ...(descriptor.formatted === true ? { formatted: true } : {}),
  });
}

function publishedTool(route: ToolRoute): McpTool {
  const { category: _category, formatted: _formatted, ...tool } = route.descriptor;
  return { ...tool, name: route.published };
}

export function publishedToolEntry(route: ToolRoute): PublishedToolEntry {
  return {
    tool: publishedTool(route),
    ref: route.ref,
    enrichers: route.mount.enrichers,
    owner: route.mount.label,
  };
}

export function publishedPrompt(mount: Mount, prompt: Prompt): Prompt {
  return { ...prompt, name: publishName(mount.prefix, prompt.name) };
}

export function publishedResource(mount: Mount, resource: Resource): Resource {
  return { ...resource, uri: publishUri(mount.scheme, resource.uri) };
}

export function publishedTemplate(mount: Mount, template: ResourceTemplate): ResourceTemplate {
  return { ...template, uriTemplate: publishUri(mount.scheme, template.uriTemplate) };
}

/** Finds the plugin that owns a published URI and the URI in that plugin's local form. */
export function routeUri(table: RouteTable, uri: string): { mount: Mount; local: string } | undefined {
  const scheme = uriScheme(uri);
  if (scheme === undefined) return undefined;
  const mount = table.schemes.get(scheme);
  if (!mount) return undefined;
  if (mount.scheme === undefined) return { mount, local: uri };
  const rest = uri.slice(scheme.length + 1);
  return { mount, local: rest.startsWith('//') ? rest.slice(2) : rest };
}
