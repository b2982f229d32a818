// ADF to Markdown: ADF maps onto mdast, which mdast-util-to-markdown writes as GFM with the escaping it needs.
import type * as Md from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { defaultHandlers, toMarkdown, type Handle } from 'mdast-util-to-markdown';
import { codeText, phrasing } from './adf-inline-to-markdown.js';
import { asNode, childrenOf, numberAttr, stringAttr, type AdfNode } from './adf-nodes.js';

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
