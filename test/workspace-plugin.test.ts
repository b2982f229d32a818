// The workspace plugin's surface: identity, options schema, and tool descriptors a client can rely on.
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../src/contract/index.js';
import workspacePlugin, { WorkspaceOptionsSchema } from '../src/plugins/workspace/index.js';
import { buildProvider, pluginContext, requestContext, useWorkspaceTree } from './support/workspace-tree.js';

const workspace = useWorkspaceTree({ config: { max_results: 3 } });
const { call } = workspace;

const descriptor = (name: string): ToolDescriptor => {
  const found = workspace.provider.tools().find((t) => t.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
};

describe('workspace plugin', () => {
  it('is the built-in "workspace" plugin', () => {
    expect(workspacePlugin).toMatchObject({ id: 'workspace', version: '0.1.0' });
  });

  it('fills option defaults and rejects unknown keys and bad values', () => {
    expect(WorkspaceOptionsSchema.parse({})).toEqual({
      root: '.',
      allow_system_root: false,
      max_read_bytes: 262144,
      max_results: 200,
    });
    expect(WorkspaceOptionsSchema.safeParse({ roots: '.' }).success).toBe(false);
    expect(WorkspaceOptionsSchema.safeParse({ max_read_bytes: 10 }).success).toBe(false);
    expect(WorkspaceOptionsSchema.safeParse({ max_results: 1.5 }).success).toBe(false);
  });

  it('refuses bad options and a missing root at build time, naming the problem', async () => {
    const { tree } = workspace;
    await expect(
      workspacePlugin.build(pluginContext({ root: tree.root, colour: 'blue' })),
    ).rejects.toMatchObject({
      code: 'E_CONFIG_INVALID',
      message: expect.stringContaining('"colour"'),
    });
    await expect(
      workspacePlugin.build(pluginContext({ root: path.join(tree.base, 'missing') })),
    ).rejects.toMatchObject({
      code: 'E_CONFIG_INVALID',
      message: expect.stringContaining('is not a directory'),
    });
  });

  it('resolves a relative root against the working directory, and serves it with no options at all', async () => {
    const relative = await buildProvider({ root: path.relative(process.cwd(), workspace.tree.root) });
    const listing = await relative.callTool('list_directory', { path: 'src' }, requestContext());
    expect(listing.structuredContent).toMatchObject({
      path: 'src',
      entries: expect.arrayContaining([expect.objectContaining({ path: 'src/util.ts', type: 'file' })]),
    });
    const byDefault = await workspacePlugin.build(pluginContext(undefined));
    const explicit = await buildProvider({ root: process.cwd() });
    const args = { include_ignored: true, max_results: 5000 };
    const [a, b] = await Promise.all(
      [byDefault, explicit].map((p) => p.callTool('list_directory', args, requestContext())),
    );
    expect(a?.structuredContent).toEqual(b?.structuredContent);
    expect((a?.structuredContent as { entries: unknown[] }).entries.length).toBeGreaterThan(0);
  });

  it('publishes four read-only workspace tools with strict, described input schemas', () => {
    const { provider } = workspace;
    expect(provider.tools().map((t) => t.name)).toEqual(['glob', 'grep', 'read_file', 'list_directory']);
    for (const tool of provider.tools()) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.category, tool.name).toBe('workspace');
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.inputSchema).not.toHaveProperty('$schema');
      for (const [key, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect(schema, `${tool.name}.${key}`).toHaveProperty('description');
      }
    }
    expect(descriptor('read_file').inputSchema.required).toEqual(['path']);
    expect(descriptor('read_file').outputSchema).toBeUndefined();
    for (const name of ['glob', 'grep', 'list_directory'])
      expect(descriptor(name).outputSchema, name).toBeDefined();
  });

  it('takes the default max_results from the options, in the schema and in the call', async () => {
    expect(descriptor('glob').inputSchema.properties?.max_results).toMatchObject({
      default: 3,
      maximum: 5000,
    });
    const result = await call('glob', { pattern: '**' });
    expect(result.structuredContent).toMatchObject({ truncated: true });
    expect((result.structuredContent as { paths: string[] }).paths).toHaveLength(3);
  });

  it('publishes input schemas that a JSON Schema validator enforces like the plugin does', () => {
    const validate = new Ajv({ strict: false }).compile(descriptor('grep').inputSchema);
    expect(validate({ pattern: 'x', context: 2, glob: '*.ts' })).toBe(true);
    expect(validate({ pattern: 'x', context: 11 })).toBe(false);
    expect(validate({ pattern: 'x', regex: true })).toBe(false);
    expect(validate({})).toBe(false);
  });

  it('answers an unknown tool name with E_TOOL_NOT_FOUND', async () => {
    await expect(call('write_file', {})).rejects.toMatchObject({
      code: 'E_TOOL_NOT_FOUND',
    });
  });
});
