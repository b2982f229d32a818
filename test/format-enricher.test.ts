// The format enricher: which tools get `format`, how a bad value is refused, and how results are rendered.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isForesightError, type ToolRef } from '../src/contract/index.js';
import { EditableToolSchema } from '../src/enrich/index.js';
import { createFormatEnricher, renderStructured } from '../src/format/index.js';

const ref = (overrides: Partial<ToolRef> = {}): ToolRef => ({
  plugin: 'gh',
  name: 'get_issues',
  published: 'gh__get_issues',
  category: 'issue_tracker',
  annotations: { readOnlyHint: true },
  ...overrides,
});

const schemaOf = (properties: Record<string, unknown> = { state: { type: 'string' } }) =>
  new EditableToolSchema({ inputSchema: { type: 'object', properties, required: [] } });

/** Runs enrichSchema and returns the resulting `format` parameter, if any. */
function formatParam(enricher: ReturnType<typeof createFormatEnricher>, tool: ToolRef) {
  const schema = schemaOf();
  enricher.enrichSchema(tool, schema);
  return schema.param('format');
}

const shaped = {
  kind: 'issue_list',
  items: [
    { key: '#1', title: 'First', state: 'open', url: 'https://github.com/o/r/issues/1', author: 'alice' },
  ],
  page: { offset: 0, total: 1 },
};

describe('format enricher', () => {
  it('is named "format" and cross-cutting', () => {
    const enricher = createFormatEnricher();
    expect(enricher.name).toBe('format');
    expect(enricher.supportedCategories()).toEqual([]);
  });

  it('adds an optional `format` enum to read-only tracker and repository tools, and to tools marked formatted', () => {
    const enricher = createFormatEnricher();
    const param = formatParam(enricher, ref());
    expect(param).toEqual({
      type: 'string',
      enum: ['markdown', 'compact', 'json', 'toon'],
      default: 'markdown',
      description: expect.stringMatching(/"markdown".*"compact".*"json".*"toon"/) as unknown,
    });
    const schema = schemaOf();
    enricher.enrichSchema(ref(), schema);
    expect(schema.toJSON().required).toEqual([]);

    expect(formatParam(enricher, ref({ category: 'git_repository' }))).toBeDefined();
    expect(
      formatParam(enricher, ref({ category: 'workspace', annotations: undefined, formatted: true })),
    ).toBeDefined();
    expect(
      formatParam(enricher, ref({ category: undefined, annotations: undefined, formatted: true })),
    ).toBeDefined();
  });

  it('leaves other tools alone', () => {
    const enricher = createFormatEnricher();
    for (const tool of [
      ref({ annotations: undefined }),
      ref({ annotations: { readOnlyHint: false } }),
      ref({ category: 'workspace' }),
      ref({ category: 'messenger' }),
      ref({ category: undefined }),
    ]) {
      const schema = schemaOf();
      const before = schema.toJSON();
      enricher.enrichSchema(tool, schema);
      expect(schema.toJSON(), JSON.stringify(tool)).toEqual(before);
    }
  });

  it('uses the configured default format', () => {
    expect(formatParam(createFormatEnricher({ defaultFormat: 'compact' }), ref())?.default).toBe('compact');
  });

  it('never touches a tool with a `format` parameter of its own, and forgets a tool once it gains one', () => {
    const enricher = createFormatEnricher();
    const tool = ref();
    enricher.enrichSchema(tool, schemaOf());
    const own = schemaOf({ format: { type: 'string', enum: ['csv', 'xlsx'] } });
    enricher.enrichSchema(tool, own);
    expect(own.param('format')).toEqual({ type: 'string', enum: ['csv', 'xlsx'] });
    const args: Record<string, unknown> = { format: 'csv' };
    enricher.transformArgs(tool, args);
    expect(args).toEqual({ format: 'csv' });
    const result: CallToolResult = { content: [{ type: 'text', text: 'a,b' }], structuredContent: shaped };
    expect(enricher.transformResult?.(tool, result, args)).toBe(result);
  });

  it("refuses a format that is not one of the four, in the validator's words", () => {
    const enricher = createFormatEnricher();
    const tool = ref();
    enricher.enrichSchema(tool, schemaOf());
    let thrown: unknown;
    try {
      enricher.transformArgs(tool, { format: 'xml' });
    } catch (error) {
      thrown = error;
    }
    expect(isForesightError(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: 'E_INVALID_ARGUMENTS',
      kind: 'invalid_input',
      message:
        'invalid arguments for tool "gh__get_issues": parameter "format" is "xml"; allowed: "markdown", "compact", "json", "toon"',
    });
  });

  it('removes `format` before the plugin sees the arguments', () => {
    const enricher = createFormatEnricher();
    const tool = ref();
    enricher.enrichSchema(tool, schemaOf());
    const args: Record<string, unknown> = { state: 'open', format: 'compact' };
    enricher.transformArgs(tool, args);
    expect(args).toEqual({ state: 'open' });
    const none: Record<string, unknown> = { state: 'open' };
    enricher.transformArgs(tool, none);
    expect(none).toEqual({ state: 'open' });
  });

  it('renders structuredContent in the asked format as one text block, keeping structuredContent and _meta', () => {
    const enricher = createFormatEnricher();
    const tool = ref();
    enricher.enrichSchema(tool, schemaOf());
    const result: CallToolResult = {
      content: [{ type: 'text', text: '{"raw":"json"}' }],
      structuredContent: shaped,
      _meta: { traceId: 't1' },
    };
    const compact = enricher.transformResult?.(tool, result, { format: 'compact' });
    expect(compact).toEqual({
      content: [
        {
          type: 'text',
          text: 'Issues (1):\nkey\ttitle\tstate\tauthor\turl\n#1\tFirst\topen\talice\thttps://github.com/o/r/issues/1',
        },
      ],
      structuredContent: shaped,
      _meta: { traceId: 't1' },
    });
    const byDefault = enricher.transformResult?.(tool, result, {});
    expect(byDefault?.content).toEqual([{ type: 'text', text: renderStructured(shaped, 'markdown').text }]);
    const json = enricher.transformResult?.(tool, result, { format: 'json' });
    expect(json?.content).toEqual([{ type: 'text', text: JSON.stringify(shaped) }]);
  });

  it('passes errors and results of tools it did not enrich through unchanged', () => {
    const enricher = createFormatEnricher();
    const tool = ref();
    enricher.enrichSchema(tool, schemaOf());
    const failed: CallToolResult = {
      content: [{ type: 'text', text: 'boom' }],
      isError: true,
      structuredContent: shaped,
    };
    expect(enricher.transformResult?.(tool, failed, { format: 'json' })).toBe(failed);
    const other = ref({ published: 'gh__create_issue', annotations: { readOnlyHint: false } });
    enricher.enrichSchema(other, schemaOf());
    const created: CallToolResult = {
      content: [{ type: 'text', text: 'created' }],
      structuredContent: shaped,
    };
    expect(enricher.transformResult?.(other, created, {})).toBe(created);
  });

  it('applies the budget to plain text results: cut at a safe boundary with a note, other blocks kept', () => {
    const enricher = createFormatEnricher({ budgetTokens: 100 });
    const tool = ref();
    enricher.enrichSchema(tool, schemaOf());
    const long = 'Строка текста с эмодзи 😀 и ещё немного слов.\n'.repeat(200);
    const result: CallToolResult = {
      content: [
        { type: 'text', text: long },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'text', text: 'second block' },
      ],
    };
    const out = enricher.transformResult?.(tool, result, {});
    const [first, image, dropped] = out?.content ?? [];
    expect(image).toEqual({ type: 'image', data: 'AAAA', mimeType: 'image/png' });
    expect(first?.type).toBe('text');
    const text = first?.type === 'text' ? first.text : '';
    expect(text).toMatch(
      /^Строка текста с эмодзи 😀 и ещё немного слов\.\n(.+\n)*\n\[… cut to fit a budget of about 100 tokens \(estimated\); \d+ more characters not shown\]$/,
    );
    expect(long.startsWith(text.slice(0, text.indexOf('\n\n[…')))).toBe(true);
    expect(dropped).toEqual({
      type: 'text',
      text: '[1 more text block left out to fit a budget of about 100 tokens (estimated)]',
    });
    const short: CallToolResult = { content: [{ type: 'text', text: 'fits' }] };
    expect(enricher.transformResult?.(tool, short, {})).toEqual(short);
  });
});
