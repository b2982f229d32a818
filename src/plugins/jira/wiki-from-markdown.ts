// Markdown (GFM) to Jira wiki markup, the text format of Server / Data Center's REST v2: micromark parses to mdast, and
// each node is written as the wiki's own notation (h1., *bold*, {{code}}, {code}, [text|url], * and # lists, ||tables||).
import type * as Md from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

/** Characters the wiki reads as markup inside text: escaped so they show as typed. */
const MARKUP = /[*_{}[\]|!^~+]/g;
const escape = (text: string): string => text.replace(MARKUP, (c) => `\\${c}`);

function inline(nodes: readonly Md.PhrasingContent[]): string {
  return nodes.map(phrase).join('');
}

function phrase(node: Md.PhrasingContent): string {
  switch (node.type) {
    case 'text':
      return escape(node.value);
    case 'strong':
      return `*${inline(node.children)}*`;
    case 'emphasis':
      return `_${inline(node.children)}_`;
    case 'delete':
      return `-${inline(node.children)}-`;
    case 'inlineCode':
      // {{…}} shows its content as code, but still reads braces: those are escaped.
      return `{{${node.value.replace(/[{}]/g, (c) => `\\${c}`)}}}`;
    case 'break':
      return '\n';
    case 'link': {
      const label = inline(node.children);
      return label === '' || label === escape(node.url) ? `[${node.url}]` : `[${label}|${node.url}]`;
    }
    case 'image':
      return `!${node.url}!`;
    case 'html':
      return escape(node.value);
    case 'linkReference':
    case 'imageReference':
      return 'children' in node ? inline(node.children) : escape(node.alt ?? '');
    default:
      return 'value' in node && typeof node.value === 'string' ? escape(node.value) : '';
  }
}

/** One list, its items prefixed by the markers of every list around it (`*#` for a numbered list in a bulleted one). */
function list(node: Md.List, markers: string): string {
  const marker = markers + (node.ordered ? '#' : '*');
  return node.children
    .map((item) => {
      const [first, ...rest] = item.children;
      // A done task shows the wiki's tick; an open one its brackets, escaped so they are not a link.
      const check = item.checked === true ? '(/) ' : item.checked === false ? '\\[ \\] ' : '';
      const head = first?.type === 'paragraph' ? inline(first.children) : first ? block(first, marker) : '';
      const nested = (first?.type === 'paragraph' ? rest : item.children.slice(1))
        .map((child) => (child.type === 'list' ? list(child, marker) : block(child, marker)))
        .filter((text) => text !== '');
      return [`${marker} ${check}${head}`, ...nested].join('\n');
    })
    .join('\n');
}

function table(node: Md.Table): string {
  return node.children
    .map((row, index) => {
      const bar = index === 0 ? '||' : '|';
      return `${bar}${row.children.map((cell) => inline(cell.children) || ' ').join(bar)}${bar}`;
    })
    .join('\n');
}

function block(node: Md.RootContent, listMarkers = ''): string {
  switch (node.type) {
    case 'paragraph':
      return inline(node.children);
    case 'heading':
      return `h${node.depth}. ${inline(node.children)}`;
    case 'thematicBreak':
      return '----';
    case 'blockquote':
      return `{quote}\n${blocks(node.children)}\n{quote}`;
    case 'list':
      return list(node, listMarkers);
    case 'code':
      return `{code${node.lang ? `:${node.lang}` : ''}}\n${node.value}\n{code}`;
    case 'html':
      return escape(node.value);
    case 'table':
      return table(node);
    case 'definition':
      return '';
    default:
      return 'children' in node ? blocks(node.children as Md.RootContent[]) : '';
  }
}

function blocks(nodes: readonly Md.RootContent[]): string {
  return nodes
    .map((node) => block(node))
    .filter((text) => text !== '')
    .join('\n\n');
}

/** Markdown as Jira wiki markup; plain text comes back as written, with the wiki's markup characters escaped. */
export function markdownToWiki(markdown: string): string {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  return blocks(tree.children);
}
