// Markdown (GFM) to ADF: micromark parses to mdast; each mdast node maps onto what ADF allows where it stands.
import type * as Md from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { AdfDocument, AdfMark, AdfNode } from './adf-nodes.js';

/** The panel type of a GitHub alert marker (`> [!NOTE]`): the five Jira Cloud documents map to themselves. */
const PANEL_TYPES: Record<string, string> = {
  info: 'info',
  note: 'note',
  warning: 'warning',
  success: 'success',
  error: 'error',
  tip: 'success',
  important: 'warning',
  caution: 'error',
};
const ALERT = /^\[!([A-Za-z]+)\][ \t]*(\n|$)/;

/**
 * The block nodes each ADF container takes (of those this converter makes). A listItem must also
 * start with a paragraph; blocks a container does not take are reshaped by `fit`.
 */
const TAKES = {
  listItem: new Set(['paragraph', 'bulletList', 'orderedList', 'codeBlock']),
  blockquote: new Set(['paragraph', 'bulletList', 'orderedList', 'codeBlock']),
  panel: new Set(['paragraph', 'heading', 'bulletList', 'orderedList', 'codeBlock', 'taskList', 'rule']),
};

/** Per document: link reference definitions, and counters that give task lists stable local ids. */
interface Context {
  definitions: Map<string, Md.Definition>;
  taskLists: number;
  tasks: number;
}

/** Markdown (GFM) as an ADF document Jira Cloud accepts. */
export function markdownToAdf(markdown: string): AdfDocument {
  const tree = fromMarkdown(markdown.replace(/\r\n?/g, '\n'), {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  const context: Context = { definitions: new Map(), taskLists: 0, tasks: 0 };
  collectDefinitions(tree, context.definitions);
  return { type: 'doc', version: 1, content: tree.children.flatMap((node) => block(node, context)) };
}

/** Link reference definitions anywhere in the tree (one in a quote counts too); the first of a label wins. */
function collectDefinitions(node: Md.Root | Md.RootContent, into: Map<string, Md.Definition>): void {
  if (node.type === 'definition' && !into.has(node.identifier)) into.set(node.identifier, node);
  if ('children' in node) for (const child of node.children) collectDefinitions(child, into);
}

function block(node: Md.RootContent, context: Context): AdfNode[] {
  switch (node.type) {
    case 'paragraph':
      return [paragraph(inline(node.children, [], context))];
    case 'heading':
      return [{ type: 'heading', attrs: { level: node.depth }, content: inline(node.children, [], context) }];
    case 'thematicBreak':
      return [{ type: 'rule' }];
    case 'blockquote':
      return quote(node, context);
    case 'list':
      return [list(node, context)];
    case 'code':
      return [codeBlock(node.value, node.lang)];
    case 'html':
      return node.value.trim() === '' ? [] : [paragraph(lines(node.value, []))];
    case 'table':
      return [table(node, context)];
    case 'footnoteDefinition':
      return footnote(node, context);
    default:
      // definitions (already read), and nodes GFM does not produce here
      return [];
  }
}

const paragraph = (content: AdfNode[]): AdfNode => ({ type: 'paragraph', content });

function codeBlock(value: string, language: string | null | undefined): AdfNode {
  const content = value === '' ? [] : [{ type: 'text', text: value }];
  return language ? { type: 'codeBlock', attrs: { language }, content } : { type: 'codeBlock', content };
}

/** A quote (none when it holds nothing), or a panel when it opens with a GitHub alert marker (`> [!WARNING]`). */
function quote(node: Md.Blockquote, context: Context): AdfNode[] {
  const [first, ...rest] = node.children;
  const head = first?.type === 'paragraph' ? first.children[0] : undefined;
  const alert = head?.type === 'text' ? ALERT.exec(head.value) : null;
  const panelType = alert ? PANEL_TYPES[alert[1]!.toLowerCase()] : undefined;
  if (first?.type === 'paragraph' && head?.type === 'text' && alert && panelType) {
    const remainder = head.value.slice(alert[0].length);
    const children =
      remainder === ''
        ? first.children.slice(1)
        : [{ ...head, value: remainder }, ...first.children.slice(1)];
    if (children[0]?.type === 'break') children.shift();
    const blocks = [...(children.length > 0 ? [{ ...first, children }] : []), ...rest];
    const content = fit(
      blocks.flatMap((child) => block(child, context)),
      TAKES.panel,
    );
    return [{ type: 'panel', attrs: { panelType }, content: content.length > 0 ? content : [paragraph([])] }];
  }
  const content = fit(
    node.children.flatMap((child) => block(child, context)),
    TAKES.blockquote,
  );
  return content.length > 0 ? [{ type: 'blockquote', content }] : [];
}

function list(node: Md.List, context: Context): AdfNode {
  const tasks = node.children.length > 0 && node.children.every((item) => typeof item.checked === 'boolean');
  if (tasks) return taskList(node, context);
  const items = node.children.map((item): AdfNode => {
    const content = fit(
      item.children.flatMap((child) => block(child, context)),
      TAKES.listItem,
    );
    if (content[0]?.type !== 'paragraph') content.unshift(paragraph([]));
    // a task item in a list that is not all tasks keeps its box as text
    if (typeof item.checked === 'boolean') prefix(content[0]!, item.checked ? '[x] ' : '[ ] ');
    return { type: 'listItem', content };
  });
  return node.ordered
    ? { type: 'orderedList', attrs: { order: node.start ?? 1 }, content: items }
    : { type: 'bulletList', content: items };
}

/** ADF task items hold inline content only; a nested task list follows its item inside the same taskList. */
function taskList(node: Md.List, context: Context): AdfNode {
  const localId = `task-list-${++context.taskLists}`;
  const content: AdfNode[] = [];
  for (const item of node.children) {
    // the item's id is taken before its nested tasks', so ids follow the document order
    const taskId = `task-${++context.tasks}`;
    const inlineContent: AdfNode[] = [];
    const nested: AdfNode[] = [];
    for (const child of item.children) {
      const converted = block(child, context);
      if (child.type === 'list' && converted[0]?.type === 'taskList') {
        nested.push(...converted);
        continue;
      }
      for (const part of converted) {
        if (inlineContent.length > 0) inlineContent.push({ type: 'hardBreak' });
        inlineContent.push(...inlineOf(part));
      }
    }
    const state = item.checked ? 'DONE' : 'TODO';
    content.push({ type: 'taskItem', attrs: { localId: taskId, state }, content: inlineContent });
    content.push(...nested);
  }
  return { type: 'taskList', attrs: { localId }, content };
}

function table(node: Md.Table, context: Context): AdfNode {
  const width = Math.max(1, ...node.children.map((row) => row.children.length));
  const rows = node.children.map((row, index): AdfNode => {
    const type = index === 0 ? 'tableHeader' : 'tableCell';
    const cells = Array.from({ length: width }, (_, column): AdfNode => {
      const content = inline(row.children[column]?.children ?? [], [], context);
      return { type, content: [paragraph(content)] };
    });
    return { type: 'tableRow', content: cells };
  });
  return { type: 'table', content: rows };
}

function footnote(node: Md.FootnoteDefinition, context: Context): AdfNode[] {
  const blocks = node.children.flatMap((child) => block(child, context));
  if (blocks[0]?.type !== 'paragraph') blocks.unshift(paragraph([]));
  prefix(blocks[0]!, `[^${node.label ?? node.identifier}]: `);
  return blocks;
}

/** Blocks a container does not take, reshaped: a heading as a paragraph, a quote as its content, the rest as text. */
function fit(blocks: AdfNode[], takes: Set<string>): AdfNode[] {
  return blocks.flatMap((node): AdfNode[] => {
    if (takes.has(node.type)) return [node];
    if (node.type === 'heading') return [paragraph(node.content ?? [])];
    if (node.type === 'blockquote' || node.type === 'panel') return fit(node.content ?? [], takes);
    if (node.type === 'rule') return [];
    if (node.type === 'taskList' && takes.has('bulletList')) return [tasksAsBullets(node)];
    if (node.type === 'table' || node.type === 'taskList')
      return (node.content ?? []).map((row) => paragraph(inlineOf(row)));
    const content = inlineOf(node);
    return content.length > 0 ? [paragraph(content)] : [];
  });
}

/** A task list where one cannot stand (in a list item, a quote): a bullet list whose items keep their box as text. */
function tasksAsBullets(node: AdfNode): AdfNode {
  const items: AdfNode[] = [];
  for (const child of node.content ?? []) {
    const owner = items[items.length - 1];
    if (child.type === 'taskList' && owner) owner.content?.push(tasksAsBullets(child));
    else if (child.type === 'taskItem') {
      const box = child.attrs?.state === 'DONE' ? '[x] ' : '[ ] ';
      items.push({
        type: 'listItem',
        content: [paragraph(merge([{ type: 'text', text: box }, ...(child.content ?? [])]))],
      });
    }
  }
  return { type: 'bulletList', content: items };
}

/** Nodes whose children are inline already. */
const INLINE_PARENTS = new Set(['paragraph', 'heading', 'taskItem']);

/** The inline content of a block: its blocks joined by hard breaks (a table row's cells by " | "). */
function inlineOf(node: AdfNode): AdfNode[] {
  if (node.type === 'text' || node.type === 'hardBreak') return [node];
  if (node.type === 'codeBlock') return lines(node.content?.[0]?.text ?? '', [{ type: 'code' }]);
  const parts = (node.content ?? []).map(inlineOf).filter((part) => part.length > 0);
  if (INLINE_PARENTS.has(node.type)) return parts.flat();
  const separator: AdfNode = node.type === 'tableRow' ? { type: 'text', text: ' | ' } : { type: 'hardBreak' };
  return merge(parts.flatMap((part, index) => (index === 0 ? part : [separator, ...part])));
}

/** Puts text before a paragraph's content (a task box, a footnote label). */
function prefix(node: AdfNode, text: string): void {
  node.content = merge([{ type: 'text', text }, ...(node.content ?? [])]);
}

function inline(nodes: Md.PhrasingContent[], marks: AdfMark[], context: Context): AdfNode[] {
  return merge(nodes.flatMap((node) => phrasing(node, marks, context)));
}

function phrasing(node: Md.PhrasingContent, marks: AdfMark[], context: Context): AdfNode[] {
  switch (node.type) {
    case 'text':
      // a soft line break is kept as a line break, as GitHub shows it in issues and comments
      return lines(node.value, marks);
    case 'emphasis':
      return inline(node.children, withMark(marks, { type: 'em' }), context);
    case 'strong':
      return inline(node.children, withMark(marks, { type: 'strong' }), context);
    case 'delete':
      return inline(node.children, withMark(marks, { type: 'strike' }), context);
    case 'inlineCode':
      // ADF lets `code` combine with `link` only
      return text(node.value, [...marks.filter((mark) => mark.type === 'link'), { type: 'code' }]);
    case 'break':
      return [{ type: 'hardBreak' }];
    case 'link':
      return linked(node.url, node.title, node.children, marks, context);
    case 'image':
      // ADF media needs an upload: an image stays a link to its source, unless it sits in a link (a badge)
      return text(node.alt || node.url, linkedImage(marks, node.url, node.title));
    case 'linkReference':
    case 'imageReference': {
      const definition = context.definitions.get(node.identifier);
      if (!definition) return text(`[${node.label ?? node.identifier}]`, marks);
      if (node.type === 'imageReference')
        return text(node.alt || definition.url, linkedImage(marks, definition.url, definition.title));
      return linked(definition.url, definition.title, node.children, marks, context);
    }
    case 'html':
      return /^<br\s*\/?>$/i.test(node.value) ? [{ type: 'hardBreak' }] : text(node.value, marks);
    case 'footnoteReference':
      return text(`[^${node.label ?? node.identifier}]`, marks);
    default:
      return [];
  }
}

function linked(
  url: string,
  title: string | null | undefined,
  children: Md.PhrasingContent[],
  marks: AdfMark[],
  context: Context,
): AdfNode[] {
  const withLink = withMark(marks, link(url, title));
  const content = inline(children, withLink, context);
  return content.length > 0 ? content : text(url, withLink);
}

const linkedImage = (marks: AdfMark[], url: string, title: string | null | undefined): AdfMark[] =>
  marks.some((mark) => mark.type === 'link') ? marks : withMark(marks, link(url, title));

const link = (href: string, title: string | null | undefined): AdfMark => ({
  type: 'link',
  attrs: title ? { href, title } : { href },
});

/** Adds a mark (replacing one of the same type); under `code` only a link is added. */
function withMark(marks: AdfMark[], mark: AdfMark): AdfMark[] {
  if (marks.some((m) => m.type === 'code') && mark.type !== 'link') return marks;
  return [...marks.filter((m) => m.type !== mark.type), mark];
}

/** A text node, or none for empty text (ADF text must not be empty). */
function text(value: string, marks: AdfMark[]): AdfNode[] {
  if (value === '') return [];
  return marks.length > 0 ? [{ type: 'text', text: value, marks }] : [{ type: 'text', text: value }];
}

/** Text whose line endings become hard breaks. */
function lines(value: string, marks: AdfMark[]): AdfNode[] {
  return value
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .flatMap((line, index) => [...(index > 0 ? [{ type: 'hardBreak' }] : []), ...text(line, marks)]);
}

/** Joins neighbouring text nodes that carry the same marks. */
function merge(nodes: AdfNode[]): AdfNode[] {
  const merged: AdfNode[] = [];
  for (const node of nodes) {
    const last = merged[merged.length - 1];
    if (last?.type === 'text' && node.type === 'text' && sameMarks(last.marks, node.marks))
      merged[merged.length - 1] = { ...last, text: `${last.text ?? ''}${node.text ?? ''}` };
    else merged.push(node);
  }
  return merged;
}

const sameMarks = (a: AdfMark[] | undefined, b: AdfMark[] | undefined): boolean =>
  JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
