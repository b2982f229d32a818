// ADF to Markdown: ADF maps onto mdast, which mdast-util-to-markdown writes as GFM with the escaping it needs.
import type * as Md from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { defaultHandlers, toMarkdown, type Handle } from 'mdast-util-to-markdown';
import {
  asNode,
  childrenOf,
  marksOf,
  numberAttr,
  stringAttr,
  type AdfMark,
  type AdfNode,
} from './adf-nodes.js';

/** Types that stand as blocks; an unknown node holding one of them is read as a container of blocks. */
const BLOCK_TYPES = new Set([
  'paragraph',
  'heading',
  'bulletList',
  'orderedList',
  'taskList',
  'decisionList',
  'codeBlock',
  'blockquote',
  'rule',
  'table',
  'panel',
  'expand',
  'nestedExpand',
  'mediaSingle',
  'mediaGroup',
  'blockCard',
  'embedCard',
]);
/** Blocks whose children are inline content. */
const INLINE_PARENTS = new Set(['paragraph', 'heading', 'taskItem', 'decisionItem']);
const PANEL_ALERTS = new Set(['info', 'note', 'warning', 'success', 'error']);
/** Marks that become mdast wrappers, outermost first; `code` becomes inline code, other marks (colour, underline…) are dropped. */
const WRAPPING_MARKS = ['link', 'strong', 'em', 'strike'];

/** Where inline content stands: a line break is a new line in a paragraph, a space in a heading, `<br>` in a table cell. */
type Place = 'paragraph' | 'heading' | 'cell';

/** An ADF document (any JSON; unknown nodes degrade to their text, never throw) as Markdown. */
export function adfToMarkdown(doc: unknown): string {
  if (typeof doc === 'string') return doc;
  const node = asNode(doc);
  if (!node) return '';
  try {
    return write({ type: 'root', children: node.type === 'doc' ? blocks(childrenOf(node)) : block(node) });
  } catch {
    // only a pathological document gets here (nesting deeper than the stack, or a cycle built in
    // memory): its text is still worth having
    return plainText(node);
  }
}

function write(root: Md.Root): string {
  const markdown = toMarkdown(root, {
    extensions: [gfmToMarkdown({ tablePipeAlign: false })],
    bullet: '-',
    // `*` works inside a word (a*b*c) where `_` would need character references
    emphasis: '*',
    rule: '-',
    fences: true,
    listItemIndent: 'one',
    handlers: { break: lineBreak },
  });
  return markdown.replace(/\n+$/, '');
}

/** The text of every text node, a line per paragraph; walked without recursion, each node once. */
function plainText(root: AdfNode): string {
  const texts: string[] = [];
  const pending: AdfNode[] = [root];
  const seen = new Set<AdfNode>();
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (seen.has(node)) continue;
    seen.add(node);
    if (node.type === 'text' && typeof node.text === 'string') texts.push(node.text);
    else if (node.type === 'paragraph' || node.type === 'hardBreak') texts.push('\n');
    pending.push(...childrenOf(node).reverse());
  }
  return texts
    .join('')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

/** A hard break as a plain line ending (as GitHub shows it in issues), where a line ending is safe. */
const lineBreak: Handle = (node: Md.Break, parent, state, info) => {
  const written = defaultHandlers.break(node, parent, state, info);
  return written === '\\\n' ? '\n' : written;
};

function blocks(nodes: AdfNode[]): Md.BlockContent[] {
  return nodes.flatMap(block);
}

function block(node: AdfNode): Md.BlockContent[] {
  switch (node.type) {
    case 'paragraph':
      return paragraph(phrasing(childrenOf(node), 'paragraph'));
    case 'heading': {
      const children = phrasing(childrenOf(node), 'heading');
      const depth = Math.min(
        6,
        Math.max(1, Math.trunc(numberAttr(node, 'level') ?? 1)),
      ) as Md.Heading['depth'];
      return children.length > 0 ? [{ type: 'heading', depth, children }] : [];
    }
    case 'bulletList':
    case 'orderedList':
    case 'decisionList':
      return list(node);
    case 'taskList':
      return taskList(node);
    case 'codeBlock': {
      const value = codeText(node);
      return [{ type: 'code', lang: stringAttr(node, 'language') ?? null, value }];
    }
    case 'blockquote': {
      const children = blocks(childrenOf(node));
      return children.length > 0 ? [{ type: 'blockquote', children }] : [];
    }
    case 'rule':
      return [{ type: 'thematicBreak' }];
    case 'table':
      return table(node);
    case 'panel':
      return panel(node);
    case 'expand':
    case 'nestedExpand': {
      const title = stringAttr(node, 'title');
      const heading = title
        ? paragraph([{ type: 'strong', children: [{ type: 'text', value: title }] }])
        : [];
      return [...heading, ...blocks(childrenOf(node))];
    }
    case 'mediaSingle':
    case 'mediaGroup':
    case 'blockCard':
    case 'embedCard':
      return paragraph(phrasing([node], 'paragraph'));
    default:
      return unknownBlock(node);
  }
}

const codeText = (node: AdfNode): string =>
  childrenOf(node)
    .map((child) => (typeof child.text === 'string' ? child.text : ''))
    .join('');

/** An unknown node: its blocks when it holds any (a layout, an extension), else a paragraph of its text. */
function unknownBlock(node: AdfNode): Md.BlockContent[] {
  return holdsBlocks(node) ? blocks(childrenOf(node)) : paragraph(phrasing([node], 'paragraph'));
}

/** True when a block stands among the node's children, or under an unknown child (a layout's columns). */
function holdsBlocks(node: AdfNode): boolean {
  return childrenOf(node).some(
    (child) => BLOCK_TYPES.has(child.type) || (child.type !== 'text' && holdsBlocks(child)),
  );
}

const paragraph = (children: Md.PhrasingContent[]): Md.Paragraph[] =>
  children.length > 0 ? [{ type: 'paragraph', children }] : [];

function list(node: AdfNode): Md.List[] {
  const ordered = node.type === 'orderedList';
  const children = childrenOf(node).map((item): Md.ListItem => {
    const blocks = itemBlocks(item);
    return { type: 'listItem', spread: false, checked: takeBox(blocks[0]), children: blocks };
  });
  if (children.length === 0) return [];
  const start = ordered ? Math.max(0, Math.trunc(numberAttr(node, 'order') ?? 1)) : undefined;
  return [{ type: 'list', ordered, start, spread: false, children }];
}

/**
 * A "[ ] " or "[x] " opening a list item's paragraph, taken off as the item's task box: what
 * markdownToAdf writes for a task list where ADF takes none (inside a list item) reads back as one.
 */
function takeBox(first: Md.BlockContent | undefined): boolean | undefined {
  if (first?.type !== 'paragraph') return undefined;
  const head = first.children[0];
  const box = head?.type === 'text' ? /^\[([ xX])\] /.exec(head.value) : null;
  if (!box || head?.type !== 'text') return undefined;
  head.value = head.value.slice(box[0].length);
  if (head.value === '') first.children.shift();
  return box[1] !== ' ';
}

/** A list item's blocks; an item holding inline content (a task or decision item) reads as one paragraph. */
function itemBlocks(item: AdfNode): Md.BlockContent[] {
  return holdsBlocks(item) ? blocks(childrenOf(item)) : paragraph(phrasing(childrenOf(item), 'paragraph'));
}

/** Task items as GFM task list items; a taskList nested in a taskList belongs to the item before it. */
function taskList(node: AdfNode): Md.List[] {
  const items: Md.ListItem[] = [];
  for (const child of childrenOf(node)) {
    if (child.type === 'taskList') {
      const nested = taskList(child);
      const owner = items[items.length - 1];
      if (owner) owner.children.push(...nested);
      else items.push({ type: 'listItem', spread: false, checked: false, children: nested });
      continue;
    }
    const checked = stringAttr(child, 'state') === 'DONE';
    items.push({ type: 'listItem', spread: false, checked, children: itemBlocks(child) });
  }
  return items.length > 0 ? [{ type: 'list', ordered: false, spread: false, children: items }] : [];
}

/** A GFM table: the first row is its header (GFM needs one); cells hold inline content only. */
function table(node: AdfNode): Md.Table[] {
  const rows = childrenOf(node).filter((row) => row.type === 'tableRow');
  const width = Math.max(0, ...rows.map((row) => childrenOf(row).length));
  if (width === 0) return [];
  const children = rows.map((row): Md.TableRow => ({
    type: 'tableRow',
    children: Array.from({ length: width }, (_, column): Md.TableCell => {
      const cell = childrenOf(row)[column];
      return { type: 'tableCell', children: cell ? cellContent(cell) : [] };
    }),
  }));
  return [{ type: 'table', align: Array.from({ length: width }, () => null), children }];
}

/** A cell's blocks as one line: paragraphs and list items joined by `<br>`. */
function cellContent(cell: AdfNode): Md.PhrasingContent[] {
  const lines: Md.PhrasingContent[][] = [];
  const collect = (node: AdfNode): void => {
    const box: Md.PhrasingContent[] =
      node.type === 'taskItem'
        ? [{ type: 'html', value: stringAttr(node, 'state') === 'DONE' ? '[x] ' : '[ ] ' }]
        : [];
    if (INLINE_PARENTS.has(node.type)) lines.push([...box, ...phrasing(childrenOf(node), 'cell')]);
    else if (holdsBlocks(node) || node.type.endsWith('List')) childrenOf(node).forEach(collect);
    else lines.push(phrasing([node], 'cell'));
  };
  childrenOf(cell).forEach(collect);
  return lines
    .filter((line) => line.length > 0)
    .flatMap((line, index) => (index === 0 ? line : [{ type: 'html', value: '<br>' } as const, ...line]));
}

/** A panel as a quote opening with a GitHub alert marker (`> [!WARNING]`), which markdownToAdf reads back. */
function panel(node: AdfNode): Md.Blockquote[] {
  const panelType = stringAttr(node, 'panelType') ?? 'info';
  const marker: Md.Html = {
    type: 'html',
    value: `[!${(PANEL_ALERTS.has(panelType) ? panelType : 'info').toUpperCase()}]`,
  };
  const children = blocks(childrenOf(node));
  const first = children[0];
  if (first?.type === 'paragraph') first.children.unshift(marker, { type: 'break' });
  else children.unshift({ type: 'paragraph', children: [marker] });
  return [{ type: 'blockquote', children }];
}

/** An inline node with its marks still to apply (mdast wraps text in marks; ADF marks each text). */
interface Leaf {
  node: Md.PhrasingContent;
  marks: AdfMark[];
}

function phrasing(nodes: AdfNode[], place: Place): Md.PhrasingContent[] {
  return wrap(nodes.flatMap((node) => leaves(node, place)));
}

function leaves(node: AdfNode, place: Place): Leaf[] {
  const plain = (value: string): Leaf[] =>
    value === '' ? [] : [{ node: { type: 'text', value }, marks: [] }];
  const literal = (value: string): Leaf => ({ node: { type: 'html', value }, marks: [] });
  switch (node.type) {
    case 'text': {
      if (typeof node.text !== 'string' || node.text === '') return [];
      const marks = marksOf(node);
      if (marks.some((mark) => mark.type === 'code'))
        return [
          { node: { type: 'inlineCode', value: node.text }, marks: marks.filter((m) => m.type === 'link') },
        ];
      return [{ node: { type: 'text', value: node.text }, marks }];
    }
    case 'hardBreak':
      if (place === 'heading') return plain(' ');
      return place === 'cell' ? [literal('<br>')] : [{ node: { type: 'break' }, marks: [] }];
    case 'mention': {
      const name = stringAttr(node, 'text') ?? stringAttr(node, 'id') ?? 'someone';
      return plain(name.startsWith('@') ? name : `@${name}`);
    }
    case 'emoji':
      return plain(stringAttr(node, 'shortName') ?? stringAttr(node, 'text') ?? '');
    case 'status': {
      const text = stringAttr(node, 'text');
      return text ? [literal('['), ...plain(text), literal(']')] : [];
    }
    case 'date': {
      const timestamp = numberAttr(node, 'timestamp');
      const date = timestamp === undefined ? undefined : new Date(timestamp);
      return date && !Number.isNaN(date.getTime()) ? plain(date.toISOString().slice(0, 10)) : [];
    }
    case 'inlineCard':
    case 'blockCard':
    case 'embedCard': {
      const url = stringAttr(node, 'url');
      return url
        ? [{ node: { type: 'link', url, children: [{ type: 'text', value: url }] }, marks: [] }]
        : [];
    }
    case 'media':
    case 'mediaInline':
      return media(node);
    case 'codeBlock': {
      const value = codeText(node).replace(/\n/g, ' ');
      return value === '' ? [] : [{ node: { type: 'inlineCode', value }, marks: [] }];
    }
    case 'placeholder':
      // the editor's hint text, not content
      return [];
    default: {
      const children = childrenOf(node);
      if (children.length > 0) {
        const inner = children.flatMap((child) => leaves(child, place));
        // separate the captions and paragraphs of a container by a space
        return node.type === 'mediaSingle' || node.type === 'mediaGroup' ? spaced(inner) : inner;
      }
      return plain(stringAttr(node, 'text') ?? '');
    }
  }
}

/** An attachment as a placeholder (ADF media lives in Jira's media store); an external image as an image. */
function media(node: AdfNode): Leaf[] {
  const url = stringAttr(node, 'url');
  const alt = stringAttr(node, 'alt');
  if (stringAttr(node, 'type') === 'external' && url)
    return [{ node: { type: 'image', url, alt: alt ?? null }, marks: [] }];
  const placeholder = (value: string): Leaf => ({ node: { type: 'html', value }, marks: [] });
  if (!alt) return [placeholder('[attachment]')];
  return [placeholder('[attachment: '), { node: { type: 'text', value: alt }, marks: [] }, placeholder(']')];
}

function spaced(leaves: Leaf[]): Leaf[] {
  return leaves.flatMap((leaf, index) =>
    index === 0 || leaf.node.type !== 'html' || !leaf.node.value.startsWith('[attachment')
      ? [leaf]
      : [{ node: { type: 'text', value: ' ' }, marks: [] }, leaf],
  );
}

/** Groups neighbouring leaves that share a mark under one mdast wrapper, outermost mark first. */
function wrap(leaves: Leaf[]): Md.PhrasingContent[] {
  const out: Md.PhrasingContent[] = [];
  let index = 0;
  while (index < leaves.length) {
    const leaf = leaves[index]!;
    const mark = outerMark(leaf.marks);
    if (!mark) {
      out.push(leaf.node);
      index += 1;
      continue;
    }
    const run: Leaf[] = [];
    while (index < leaves.length && leaves[index]!.marks.some((other) => sameMark(other, mark))) {
      const { node, marks } = leaves[index]!;
      run.push({ node, marks: marks.filter((other) => !sameMark(other, mark)) });
      index += 1;
    }
    out.push(...wrapped(mark, run));
  }
  return out;
}

function outerMark(marks: AdfMark[]): AdfMark | undefined {
  for (const type of WRAPPING_MARKS) {
    const mark = marks.find((candidate) => candidate.type === type);
    if (mark && (type !== 'link' || stringAttr(mark, 'href'))) return mark;
  }
  return undefined;
}

const sameMark = (a: AdfMark, b: AdfMark): boolean =>
  a.type === b.type && (a.type !== 'link' || stringAttr(a, 'href') === stringAttr(b, 'href'));

/** The run under its mark; spaces at the edges of bold, italic or struck text stay outside it, as markdown needs. */
function wrapped(mark: AdfMark, run: Leaf[]): Md.PhrasingContent[] {
  if (mark.type === 'link') {
    const title = stringAttr(mark, 'title') ?? null;
    return [{ type: 'link', url: stringAttr(mark, 'href') ?? '', title, children: wrap(run) }];
  }
  const [before, inner, after] = trimEdges(run);
  if (inner.length === 0) return [...before, ...after];
  const type = mark.type === 'strong' ? 'strong' : mark.type === 'em' ? 'emphasis' : 'delete';
  return [...before, { type, children: wrap(inner) }, ...after];
}

function trimEdges(run: Leaf[]): [Md.Text[], Leaf[], Md.Text[]] {
  const inner = [...run];
  const before: Md.Text[] = [];
  const after: Md.Text[] = [];
  const first = inner[0]?.node;
  if (first?.type === 'text') {
    const value = first.value.replace(/^\s+/, '');
    const lead = first.value.length - value.length;
    if (lead > 0) before.push({ type: 'text', value: first.value.slice(0, lead) });
    if (value === '') inner.shift();
    else inner[0] = { ...inner[0]!, node: { type: 'text', value } };
  }
  const last = inner[inner.length - 1]?.node;
  if (last?.type === 'text') {
    const value = last.value.replace(/\s+$/, '');
    if (value.length < last.value.length) after.push({ type: 'text', value: last.value.slice(value.length) });
    if (value === '') inner.pop();
    else inner[inner.length - 1] = { ...inner[inner.length - 1]!, node: { type: 'text', value } };
  }
  return [before, inner, after];
}
