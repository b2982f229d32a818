// The format layer end to end: a tracker plugin returning shaped data, a real MCP client, the [format] table.
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type IssueShape, type ShapedResult, type ToolDescriptor, definePlugin } from '../src/index.js';
import { type Connected, connect, textOf } from './support/in-memory.js';

const ISSUES: IssueShape[] = Array.from({ length: 30 }, (_, i) => ({
  key: `#${i + 1}`,
  title: i % 2 ? `Ошибка сохранения ${i + 1}` : `Save fails ${i + 1}`,
  state: 'open',
  url: `https://tracker.example/issues/${i + 1}`,
  author: 'alice',
  assignees: ['борис'],
  labels: ['bug'],
  updatedAt: '2026-11-01T09:00:00Z',
  commentCount: i,
  body: 'Нажимаю «Сохранить» — ничего не происходит. '.repeat(4),
}));

let received: Record<string, unknown>[] = [];
let connected: Connected | undefined;

afterEach(async () => {
  await connected?.close();
  connected = undefined;
  received = [];
});

const tracker = definePlugin({
  id: 'tracker',
  version: '1.0.0',
  build: () => ({
    tools: (): ToolDescriptor[] => [
      {
        name: 'get_issues',
        category: 'issue_tracker',
        annotations: { readOnlyHint: true },
        inputSchema: {
          type: 'object',
          properties: { offset: { type: 'integer' } },
          additionalProperties: false,
        },
      },
      {
        name: 'create_issue',
        category: 'issue_tracker',
        inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
      },
    ],
    enrichers: () => [
      {
        name: 'tracker',
        supportedCategories: () => ['issue_tracker'],
        enrichSchema: () => {},
        transformArgs: () => {},
      },
    ],
    callTool: async (_name, args) => {
      received.push(args);
      const structuredContent: ShapedResult = {
        kind: 'issue_list',
        items: ISSUES,
        page: { offset: 0, limit: 30, total: 143 },
      };
      return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
    },
  }),
});

async function serve(toml: string): Promise<Connected> {
  connected = await connect({
    config: parseConfig(toml, '/proj/foresight.toml', '/proj', {}),
    plugins: [tracker],
  });
  return connected;
}

describe('format layer through the pipeline', () => {
  const toml = '[format]\nbudget_tokens = 400\ndefault = "compact"\n';

  it('adds `format` to read tools only, with the configured default', async () => {
    const c = await serve(toml);
    const { tools } = await c.client.listTools();
    const read = tools.find((t) => t.name === 'tracker__get_issues');
    expect(read?.inputSchema.properties?.format).toMatchObject({
      type: 'string',
      enum: ['markdown', 'compact', 'json', 'toon'],
      default: 'compact',
    });
    expect(tools.find((t) => t.name === 'tracker__create_issue')?.inputSchema.properties).not.toHaveProperty(
      'format',
    );
  });

  it('renders within the budget with the way to the rest, keeps structuredContent, never passes `format` on', async () => {
    const c = await serve(toml);
    const result = await c.client.callTool({ name: 'tracker__get_issues', arguments: {} });
    const text = textOf(result);
    const lines = text.split('\n').filter((line) => line.startsWith('#'));
    expect(text.split('\n')[1]).toMatch(/^key\ttitle\tstate\tauthor\tassignees\tlabels\t/);
    expect(lines[0]).toMatch(/^#1\tSave fails 1\topen\talice\tборис\tbug\t/);
    expect(lines[1]).toContain('Ошибка сохранения 2');
    expect(text).toMatch(
      new RegExp(
        `Showing ${lines.length} of 143 issues \\(trimmed to fit a budget of about 400 tokens, estimated\\); call again with offset=${lines.length} for the next ones\\.`,
      ),
    );
    expect(lines.length).toBeLessThan(30);
    expect((result.structuredContent as { items: unknown[] }).items).toHaveLength(30);
    expect(received).toEqual([{}]);
  });

  it('gives json when asked, and refuses an unknown format before the plugin runs', async () => {
    const c = await serve(toml);
    const json = await c.client.callTool({ name: 'tracker__get_issues', arguments: { format: 'json' } });
    const data = JSON.parse(textOf(json).split('\n\n')[0] ?? '') as { kind: string; items: IssueShape[] };
    expect(data.kind).toBe('issue_list');
    expect(data.items[0]).toEqual(ISSUES[0]);

    const bad = await c.client.callTool({ name: 'tracker__get_issues', arguments: { format: 'xml' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toBe(
      'invalid arguments for tool "tracker__get_issues": parameter "format" is "xml"; allowed: "markdown", "compact", "json", "toon"',
    );
    expect(received).toEqual([{}]);
  });

  it('lets an [[enrich]] rule pin the format: hidden from the agent, applied to every call', async () => {
    const c = await serve(
      `${toml}[[enrich]]\ntools = ["tracker__get_issues"]\npin = { format = "markdown" }\n`,
    );
    const { tools } = await c.client.listTools();
    expect(tools.find((t) => t.name === 'tracker__get_issues')?.inputSchema.properties).not.toHaveProperty(
      'format',
    );
    const result = await c.client.callTool({ name: 'tracker__get_issues', arguments: {} });
    expect(textOf(result)).toMatch(/^## Issues \(\d+ of 143\)\n\n\| Key \| Title \|/);
    expect(received).toEqual([{}]);
  });
});
