// The global format enricher: adds the `format` parameter to tracker and repository reads, and renders their results.
import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  DEFAULT_BUDGET_TOKENS,
  errors,
  OUTPUT_FORMATS,
  type OutputFormat,
  type ToolEnricher,
  type ToolRef,
} from '../contract/index.js';
import { fitTextContent } from './content.js';
import { isOutputFormat } from './formats.js';
import { renderStructured } from './render.js';
import { preloadTokenizer } from './tokens.js';

export interface FormatOptions {
  /** Largest answer, in estimated tokens, before lists and long text are trimmed; default 8000. */
  budgetTokens?: number;
  /** What the `format` parameter defaults to; default 'markdown'. */
  defaultFormat?: OutputFormat;
}

const PARAM = 'format';

const DESCRIPTION =
  'How to present the result: "markdown" gives headings and tables, "compact" one short line per item, ' +
  '"json" the full data as JSON, "toon" the same data in compact TOON notation.';

const FORMATTED_CATEGORIES: readonly (ToolRef['category'] | undefined)[] = [
  'issue_tracker',
  'git_repository',
];

/** Read-only tracker and repository tools get the format layer, and so does any tool its plugin marks `formatted`. */
function wantsFormat(tool: ToolRef): boolean {
  return (
    tool.formatted === true ||
    (FORMATTED_CATEGORIES.includes(tool.category) && tool.annotations?.readOnlyHint === true)
  );
}

const quoted = (value: unknown) => JSON.stringify(value) ?? String(value);

export function createFormatEnricher(options: FormatOptions = {}): ToolEnricher {
  const budgetTokens = options.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const defaultFormat = options.defaultFormat ?? 'markdown';
  // Published names of the tools this enricher added `format` to, as of the latest tools/list build.
  const applied = new Set<string>();

  return {
    name: 'format',
    supportedCategories: () => [],
    enrichSchema(tool, schema) {
      // A tool with a `format` parameter of its own keeps it, and its results stay as the plugin made them.
      if (!wantsFormat(tool) || schema.param(PARAM) !== undefined) {
        applied.delete(tool.published);
        return;
      }
      schema.addParam(PARAM, {
        type: 'string',
        enum: [...OUTPUT_FORMATS],
        default: defaultFormat,
        description: DESCRIPTION,
      });
      applied.add(tool.published);
      // A tool that will format its answers is listed: load the tokenizer before its first call.
      preloadTokenizer();
    },
    transformArgs(tool, args) {
      if (!applied.has(tool.published) || !(PARAM in args)) return;
      const value = args[PARAM];
      if (value !== undefined && !isOutputFormat(value)) {
        throw errors.invalidArguments(
          `tool "${tool.published}"`,
          `parameter "${PARAM}" is ${quoted(value)}; allowed: ${OUTPUT_FORMATS.map(quoted).join(', ')}`,
        );
      }
      delete args[PARAM];
    },
    transformResult(tool, result, args): CallToolResult {
      if (!applied.has(tool.published) || result.isError === true) return result;
      const format = isOutputFormat(args[PARAM]) ? args[PARAM] : defaultFormat;
      if (result.structuredContent !== undefined) {
        const rendered = renderStructured(result.structuredContent, format, { budgetTokens });
        return { ...result, content: [{ type: 'text', text: rendered.text }] };
      }
      return { ...result, content: fitTextContent(result.content, budgetTokens) };
    },
  };
}
