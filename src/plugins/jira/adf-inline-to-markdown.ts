// ADF inline content to mdast phrasing: marks become nested wrappers, Jira's inline nodes become text.
import type * as Md from 'mdast';
import { childrenOf, marksOf, numberAttr, stringAttr, type AdfMark, type AdfNode } from './adf-nodes.js';

/** Marks that become mdast wrappers, outermost first; `code` becomes inline code, other marks (colour…) are dropped. */
const WRAPPING_MARKS = ['link', 'strong', 'em', 'strike'];

/** Where inline content stands: a line break is a new line in a paragraph, a space in a heading, `<br>` in a table cell. */
export type Place = 'paragraph' | 'heading' | 'cell';

/** The text of a code block's text nodes. */
export const codeText = (node: AdfNode): string =>
  childrenOf(node)
    .map((child) => (typeof child.text === 'string' ? child.text : ''))
    .join('');

/** An inline node with its marks still to apply (mdast wraps text in marks; ADF marks each text). */
interface Leaf {
  node: Md.PhrasingContent;
  marks: AdfMark[];
}

/** ADF inline nodes as mdast phrasing content. */
export function phrasing(nodes: AdfNode[], place: Place): Md.PhrasingContent[] {
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
