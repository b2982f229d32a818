// Markdown <-> Atlassian Document Format (ADF), the JSON Jira Cloud REST v3 uses for descriptions and comments.

export interface AdfMark {
  type: string;
  attrs?: Record<string, unknown>;
}
export interface AdfNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: AdfNode[];
  text?: string;
  marks?: AdfMark[];
}
export interface AdfDocument {
  type: 'doc';
  version: 1;
  content: AdfNode[];
}

/** Markdown (GFM) as an ADF document Jira Cloud accepts. */
export function markdownToAdf(markdown: string): AdfDocument {
  const paragraphs = markdown
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '');
  const content = paragraphs.map((block): AdfNode => {
    const inline: AdfNode[] = [];
    block.split('\n').forEach((line, i) => {
      if (i > 0) inline.push({ type: 'hardBreak' });
      if (line !== '') inline.push({ type: 'text', text: line });
    });
    return { type: 'paragraph', content: inline };
  });
  return { type: 'doc', version: 1, content };
}

/** An ADF document (any JSON; unknown nodes degrade to their text, never throw) as Markdown. */
export function adfToMarkdown(doc: unknown): string {
  if (!isAdfDocument(doc)) return '';
  return doc.content
    .map((node) => inlineText(node))
    .filter((text) => text !== '')
    .join('\n\n');
}

/** True when the value looks like an ADF document ({type:'doc', content:[...]}). */
export function isAdfDocument(value: unknown): value is AdfDocument {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'doc' &&
    Array.isArray((value as { content?: unknown }).content)
  );
}

function inlineText(node: unknown): string {
  if (typeof node !== 'object' || node === null) return '';
  const { type, text, content } = node as { type?: unknown; text?: unknown; content?: unknown };
  if (type === 'hardBreak') return '\n';
  if (typeof text === 'string') return text;
  return Array.isArray(content) ? content.map(inlineText).join('') : '';
}
