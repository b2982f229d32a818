// Markdown <-> ADF for the Jira Cloud plugin: exact documents both ways, round trips, tolerance of any JSON.
import { describe, expect, it } from 'vitest';
import { adfToMarkdown, isAdfDocument, markdownToAdf, type AdfNode } from '../src/plugins/jira/adf.js';

// ---- a small structural checker, from the ADF reference: which children each node takes ----

const INLINE = ['text', 'hardBreak', 'mention', 'emoji', 'inlineCard', 'status', 'date'];
const LIST_ITEM_REST = ['paragraph', 'bulletList', 'orderedList', 'codeBlock'];
const CELL = [
  'paragraph',
  'heading',
  'bulletList',
  'orderedList',
  'codeBlock',
  'blockquote',
  'rule',
  'panel',
  'taskList',
];
const TOP = [...CELL, 'table', 'expand', 'mediaSingle'];
/** For each container: the types its children may have, and whether it must have at least one. */
const CHILDREN: Record<string, { allowed: string[]; atLeastOne: boolean }> = {
  doc: { allowed: TOP, atLeastOne: false },
  paragraph: { allowed: INLINE, atLeastOne: false },
  heading: { allowed: INLINE, atLeastOne: false },
  bulletList: { allowed: ['listItem'], atLeastOne: true },
  orderedList: { allowed: ['listItem'], atLeastOne: true },
  listItem: { allowed: LIST_ITEM_REST, atLeastOne: true },
  taskList: { allowed: ['taskItem', 'taskList'], atLeastOne: true },
  taskItem: { allowed: INLINE, atLeastOne: false },
  codeBlock: { allowed: ['text'], atLeastOne: false },
  blockquote: { allowed: ['paragraph', 'bulletList', 'orderedList', 'codeBlock'], atLeastOne: true },
  panel: {
    allowed: ['paragraph', 'heading', 'bulletList', 'orderedList', 'codeBlock', 'taskList', 'rule'],
    atLeastOne: true,
  },
  table: { allowed: ['tableRow'], atLeastOne: true },
  tableRow: { allowed: ['tableHeader', 'tableCell'], atLeastOne: true },
  tableHeader: { allowed: CELL, atLeastOne: true },
  tableCell: { allowed: CELL, atLeastOne: true },
};
const LEAVES = ['text', 'hardBreak', 'rule'];
const MARKS = ['strong', 'em', 'strike', 'code', 'link'];

/** Every rule a produced document breaks, as "path: problem"; empty when the document is valid. */
function adfProblems(doc: unknown): string[] {
  const problems: string[] = [];
  const root = doc as { type?: unknown; version?: unknown; content?: unknown };
  if (root.type !== 'doc' || root.version !== 1) problems.push('root: not {type:"doc", version:1}');
  const visit = (node: AdfNode, path: string): void => {
    const rule = CHILDREN[node.type];
    if (!rule && !LEAVES.includes(node.type)) problems.push(`${path}: unexpected node type ${node.type}`);
    if (node.type === 'text') {
      if (typeof node.text !== 'string' || node.text === '') problems.push(`${path}: empty text`);
      const types = (node.marks ?? []).map((mark) => mark.type);
      if (new Set(types).size !== types.length) problems.push(`${path}: a mark twice`);
      for (const mark of node.marks ?? []) {
        if (!MARKS.includes(mark.type)) problems.push(`${path}: unknown mark ${mark.type}`);
        if (mark.type === 'link' && typeof mark.attrs?.href !== 'string')
          problems.push(`${path}: link without href`);
      }
      if (types.includes('code') && types.some((type) => type !== 'code' && type !== 'link'))
        problems.push(`${path}: code combined with ${types.join('+')}`);
    }
    if (LEAVES.includes(node.type) && node.content !== undefined)
      problems.push(`${path}: a leaf with content`);
    if (node.type === 'heading' && ![1, 2, 3, 4, 5, 6].includes(node.attrs?.level as number))
      problems.push(`${path}: heading level`);
    if (node.type === 'orderedList' && node.attrs?.order !== undefined && !Number.isInteger(node.attrs.order))
      problems.push(`${path}: order`);
    if (node.type === 'codeBlock' && node.content?.some((child) => child.marks !== undefined))
      problems.push(`${path}: marks in a code block`);
    if (node.type === 'taskList' || node.type === 'taskItem') {
      if (typeof node.attrs?.localId !== 'string' || node.attrs.localId === '')
        problems.push(`${path}: localId`);
    }
    if (node.type === 'taskItem' && !['TODO', 'DONE'].includes(node.attrs?.state as string))
      problems.push(`${path}: state`);
    if (node.type === 'taskList' && node.content?.[0]?.type !== 'taskItem')
      problems.push(`${path}: a taskList starts with a taskItem`);
    if (node.type === 'listItem' && node.content?.[0]?.type !== 'paragraph')
      problems.push(`${path}: a listItem starts with a paragraph`);
    if (!rule) return;
    const content = node.content ?? [];
    if (!Array.isArray(node.content)) problems.push(`${path}: no content array`);
    if (rule.atLeastOne && content.length === 0) problems.push(`${path}: empty ${node.type}`);
    content.forEach((child, index) => {
      if (!rule.allowed.includes(child.type)) problems.push(`${path}: ${child.type} inside ${node.type}`);
      visit(child, `${path}.${child.type}[${index}]`);
    });
  };
  visit(root as AdfNode, 'doc');
  return problems;
}

/** The document markdownToAdf makes, after checking it against the rules above. */
function adf(markdown: string): AdfNode[] {
  const doc = markdownToAdf(markdown);
  expect(adfProblems(doc)).toEqual([]);
  return doc.content;
}

const doc = (...content: unknown[]) => ({ type: 'doc', version: 1, content });
const p = (...content: unknown[]) => ({ type: 'paragraph', content });
const t = (text: string, ...marks: unknown[]) =>
  marks.length > 0 ? { type: 'text', text, marks } : { type: 'text', text };
const br = { type: 'hardBreak' };
const strong = { type: 'strong' };
const em = { type: 'em' };
const strike = { type: 'strike' };
const code = { type: 'code' };
const link = (href: string) => ({ type: 'link', attrs: { href } });
const li = (...content: unknown[]) => ({ type: 'listItem', content });
const cell = (type: 'tableHeader' | 'tableCell', ...content: unknown[]) => ({
  type,
  content: [p(...content)],
});

describe('the structural checker', () => {
  it('catches a wrong nesting, empty text and code combined with strong', () => {
    const bad = doc(
      { type: 'bulletList', content: [li({ type: 'blockquote', content: [p(t('x'))] })] },
      p({ type: 'text', text: '' }, t('y', code, strong)),
    );
    expect(adfProblems(bad)).toEqual([
      'doc.bulletList[0].listItem[0]: a listItem starts with a paragraph',
      'doc.bulletList[0].listItem[0]: blockquote inside listItem',
      'doc.paragraph[1].text[0]: empty text',
      'doc.paragraph[1].text[1]: code combined with code+strong',
    ]);
  });
});

describe('markdownToAdf', () => {
  it('turns empty or blank markdown into a doc with empty content', () => {
    expect(markdownToAdf('')).toEqual(doc());
    expect(markdownToAdf(' \n\n \n')).toEqual(doc());
  });

  it('keeps paragraphs, and both hard and soft line breaks as hardBreak nodes', () => {
    expect(markdownToAdf('one\ntwo\n\nthree  \nfour\\\nfive')).toEqual(
      doc(p(t('one'), br, t('two')), p(t('three'), br, t('four'), br, t('five'))),
    );
  });

  it('maps headings 1 to 6 onto heading nodes with attrs.level', () => {
    const levels = [1, 2, 3, 4, 5, 6];
    expect(adf(levels.map((level) => `${'#'.repeat(level)} H${level}`).join('\n'))).toEqual(
      levels.map((level) => ({ type: 'heading', attrs: { level }, content: [t(`H${level}`)] })),
    );
  });

  it('maps bold, italic, strike, inline code and links onto marks', () => {
    expect(adf('**b** _i_ ~~s~~ `c` [l](https://example.com/a?b=1)')).toEqual([
      p(
        t('b', strong),
        t(' '),
        t('i', em),
        t(' '),
        t('s', strike),
        t(' '),
        t('c', code),
        t(' '),
        t('l', link('https://example.com/a?b=1')),
      ),
    ]);
  });

  it('nests marks, keeping only a link beside code', () => {
    expect(
      adf('**bold _both_** [**strong link**](https://x.io) **`code`** [`code link`](https://y.io)'),
    ).toEqual([
      p(
        t('bold ', strong),
        t('both', strong, em),
        t(' '),
        t('strong link', link('https://x.io'), strong),
        t(' '),
        t('code', code),
        t(' '),
        t('code link', link('https://y.io'), code),
      ),
    ]);
  });

  it('keeps a link title, resolves reference links (defined anywhere) and GFM autolinks', () => {
    expect(
      adf(
        '[a](https://a.io "The A") [b][ref] www.example.com <https://c.io>\n\n> quoted\n>\n> [ref]: https://b.io',
      ),
    ).toEqual([
      p(
        t('a', { type: 'link', attrs: { href: 'https://a.io', title: 'The A' } }),
        t(' '),
        t('b', link('https://b.io')),
        t(' '),
        t('www.example.com', link('http://www.example.com')),
        t(' '),
        t('https://c.io', link('https://c.io')),
      ),
      { type: 'blockquote', content: [p(t('quoted'))] },
    ]);
  });

  it('maps nested bullet lists and ordered lists (attrs.order from the first number)', () => {
    expect(adf('- a\n  - a1\n- b\n\n3. three\n4. four')).toEqual([
      {
        type: 'bulletList',
        content: [li(p(t('a')), { type: 'bulletList', content: [li(p(t('a1')))] }), li(p(t('b')))],
      },
      { type: 'orderedList', attrs: { order: 3 }, content: [li(p(t('three'))), li(p(t('four')))] },
    ]);
  });

  it('starts every list item with a paragraph, even an empty one or one opening with code', () => {
    expect(adf('-\n- ```sh\n  make\n  ```')).toEqual([
      {
        type: 'bulletList',
        content: [li(p()), li(p(), { type: 'codeBlock', attrs: { language: 'sh' }, content: [t('make')] })],
      },
    ]);
  });

  it('maps fenced code onto codeBlock with attrs.language, and an empty block onto no text at all', () => {
    expect(adf('```ts\nconst a = 1;\n\nlet b;\n```\n\n```\n```')).toEqual([
      { type: 'codeBlock', attrs: { language: 'ts' }, content: [t('const a = 1;\n\nlet b;')] },
      { type: 'codeBlock', content: [] },
    ]);
  });

  it('maps a quote onto blockquote and a thematic break onto rule', () => {
    expect(adf('> quoted\n> - item\n\n---')).toEqual([
      { type: 'blockquote', content: [p(t('quoted')), { type: 'bulletList', content: [li(p(t('item')))] }] },
      { type: 'rule' },
    ]);
  });

  it('reshapes what a container does not take: a heading in a quote, a quote in a list item', () => {
    expect(adf('> ## Title\n> > inner\n\n- item\n\n  > quoted')).toEqual([
      { type: 'blockquote', content: [p(t('Title')), p(t('inner'))] },
      { type: 'bulletList', content: [li(p(t('item')), p(t('quoted')))] },
    ]);
  });

  it('drops a quote that holds nothing (ADF needs content in a blockquote)', () => {
    expect(adf('>\n\n> [ref]: https://x.io\n\ntext')).toEqual([p(t('text'))]);
  });

  it('maps a GitHub alert quote onto a panel', () => {
    expect(adf('> [!WARNING]\n> Mind the **gap**\n\n> [!TIP]\n> Use it')).toEqual([
      { type: 'panel', attrs: { panelType: 'warning' }, content: [p(t('Mind the '), t('gap', strong))] },
      { type: 'panel', attrs: { panelType: 'success' }, content: [p(t('Use it'))] },
    ]);
  });

  it('maps a GFM table onto table, a header row of tableHeader and rows of tableCell, each with a paragraph', () => {
    expect(adf('| Key | Status |\n| --- | :-: |\n| PROJ-1 | **done** |\n| PROJ-2 |')).toEqual([
      {
        type: 'table',
        content: [
          { type: 'tableRow', content: [cell('tableHeader', t('Key')), cell('tableHeader', t('Status'))] },
          {
            type: 'tableRow',
            content: [cell('tableCell', t('PROJ-1')), cell('tableCell', t('done', strong))],
          },
          { type: 'tableRow', content: [cell('tableCell', t('PROJ-2')), cell('tableCell')] },
        ],
      },
    ]);
  });

  it('keeps a <br> inside a table cell as a hardBreak', () => {
    const [table] = adf('| a |\n| - |\n| one<br>two |');
    expect(table?.content?.[1]).toEqual({
      type: 'tableRow',
      content: [cell('tableCell', t('one'), br, t('two'))],
    });
  });

  it('maps a GFM task list onto taskList and taskItem with stable local ids and TODO/DONE states', () => {
    expect(adf('- [ ] write **tests**\n- [x] ship\n  - [ ] announce')).toEqual([
      {
        type: 'taskList',
        attrs: { localId: 'task-list-1' },
        content: [
          {
            type: 'taskItem',
            attrs: { localId: 'task-1', state: 'TODO' },
            content: [t('write '), t('tests', strong)],
          },
          { type: 'taskItem', attrs: { localId: 'task-2', state: 'DONE' }, content: [t('ship')] },
          {
            type: 'taskList',
            attrs: { localId: 'task-list-2' },
            content: [
              { type: 'taskItem', attrs: { localId: 'task-3', state: 'TODO' }, content: [t('announce')] },
            ],
          },
        ],
      },
    ]);
  });

  it('keeps a task list inside a list item as bullets with their boxes (a listItem takes no taskList)', () => {
    const markdown = '- Feature\n  - [ ] design\n    - [x] sketch\n  - [x] build';
    expect(adfToMarkdown(markdownToAdf(markdown))).toBe(markdown);
    expect(adf(markdown)).toEqual([
      {
        type: 'bulletList',
        content: [
          li(p(t('Feature')), {
            type: 'bulletList',
            content: [
              li(p(t('[ ] design')), { type: 'bulletList', content: [li(p(t('[x] sketch')))] }),
              li(p(t('[x] build'))),
            ],
          }),
        ],
      },
    ]);
  });

  it('keeps the box as text for a task item in a list that is not all tasks', () => {
    expect(adf('- [x] done\n- plain')).toEqual([
      { type: 'bulletList', content: [li(p(t('[x] done'))), li(p(t('plain')))] },
    ]);
  });

  it('turns images into links (ADF media needs an upload)', () => {
    expect(adf('![screenshot](https://img.io/a.png) ![](https://img.io/b.png)')).toEqual([
      p(
        t('screenshot', link('https://img.io/a.png')),
        t(' '),
        t('https://img.io/b.png', link('https://img.io/b.png')),
      ),
    ]);
  });

  it('keeps the link target of a linked image (a badge), and reads CRLF line endings', () => {
    expect(adf('[![build](https://ci.io/badge.svg)](https://ci.io/run/1)\r\nnext')).toEqual([
      p(t('build', link('https://ci.io/run/1')), br, t('next')),
    ]);
  });

  it('keeps raw HTML and footnotes as text rather than dropping them', () => {
    expect(adf('<div>\nblock\n</div>\n\nSee[^1] <kbd>x</kbd>\n\n[^1]: The note')).toEqual([
      p(t('<div>'), br, t('block'), br, t('</div>')),
      p(t('See[^1] <kbd>x</kbd>')),
      p(t('[^1]: The note')),
    ]);
  });

  it('keeps Cyrillic, CJK and emoji text unchanged', () => {
    expect(adf('Привет, **мир** 你好 🎉👩‍💻')).toEqual([p(t('Привет, '), t('мир', strong), t(' 你好 🎉👩‍💻'))]);
  });
});

describe('adfToMarkdown', () => {
  const md = (...content: unknown[]) => adfToMarkdown(doc(...content));

  it('writes paragraphs, hard breaks and headings', () => {
    expect(
      md(p(t('one'), br, t('two')), {
        type: 'heading',
        attrs: { level: 3 },
        content: [t('Head'), br, t('ing')],
      }),
    ).toBe('one\ntwo\n\n### Head ing');
  });

  it('writes marks, grouping neighbours under one mark and keeping spaces outside it', () => {
    expect(
      md(
        p(
          t('bold ', strong),
          t('both', strong, em),
          t(' and '),
          t('gone', strike),
          t(' '),
          t('code', code),
          t(' '),
          t('link ', link('https://x.io')),
          t('bold', link('https://x.io'), strong),
          t(' '),
          t('c', link('https://y.io'), code),
          t(' underlined', { type: 'underline' }),
        ),
      ),
    ).toBe(
      '**bold _both_** and ~~gone~~ `code` [link **bold**](https://x.io) [`c`](https://y.io) underlined',
    );
  });

  it('escapes text that would otherwise read as markdown', () => {
    expect(md(p(t('2 * 3 = 6, not *bold* or [a](b)')), p(t('# not a heading')))).toBe(
      '2 \\* 3 = 6, not \\*bold\\* or \\[a]\\(b)\n\n\\# not a heading',
    );
  });

  it('writes nested and ordered lists (a list starting past 1 cannot interrupt a paragraph: a blank line comes first)', () => {
    expect(
      md(
        {
          type: 'bulletList',
          content: [li(p(t('a')), { type: 'orderedList', attrs: { order: 2 }, content: [li(p(t('x')))] })],
        },
        { type: 'orderedList', content: [li(p(t('one'))), li(p(t('two')))] },
      ),
    ).toBe('- a\n\n  2. x\n\n1. one\n2. two');
  });

  it('writes task lists, a nested taskList under the item before it', () => {
    const item = (state: string, text: string) => ({
      type: 'taskItem',
      attrs: { localId: text, state },
      content: [t(text)],
    });
    expect(
      md({
        type: 'taskList',
        attrs: { localId: 'l' },
        content: [
          item('DONE', 'a'),
          { type: 'taskList', attrs: { localId: 'm' }, content: [item('TODO', 'b')] },
        ],
      }),
    ).toBe('- [x] a\n  - [ ] b');
  });

  it('writes code blocks, quotes, rules and tables', () => {
    expect(
      md(
        { type: 'codeBlock', attrs: { language: 'python' }, content: [t('print("hi")')] },
        { type: 'blockquote', content: [p(t('quoted'))] },
        { type: 'rule' },
        {
          type: 'table',
          content: [
            { type: 'tableRow', content: [cell('tableHeader', t('A')), cell('tableHeader', t('B|C'))] },
            { type: 'tableRow', content: [cell('tableCell', t('1'), br, t('2'))] },
          ],
        },
      ),
    ).toBe('```python\nprint("hi")\n```\n\n> quoted\n\n---\n\n| A | B\\|C |\n| - | - |\n| 1<br>2 | |');
  });

  it('writes Jira inline nodes: mention, emoji, cards, status and date', () => {
    expect(
      md(
        p(
          { type: 'mention', attrs: { id: '5b10a2844c20165700ede21g', text: '@Ada Lovelace' } },
          t(' '),
          { type: 'mention', attrs: { id: 'abc', text: 'Bob' } },
          t(' '),
          { type: 'emoji', attrs: { shortName: ':smile:', id: '1f604', text: '😄' } },
          t(' '),
          { type: 'inlineCard', attrs: { url: 'https://example.atlassian.net/browse/PROJ-1' } },
          t(' '),
          { type: 'status', attrs: { text: 'IN PROGRESS', color: 'blue' } },
          t(' due '),
          { type: 'date', attrs: { timestamp: '1767225600000' } },
        ),
        { type: 'blockCard', attrs: { url: 'https://example.com/doc' } },
      ),
    ).toBe(
      '@Ada Lovelace @Bob :smile: <https://example.atlassian.net/browse/PROJ-1> [IN PROGRESS] due 2026-01-01\n\n<https://example.com/doc>',
    );
  });

  it('writes a panel as a quote with its type, which reads back as the same panel', () => {
    const panel = { type: 'panel', attrs: { panelType: 'note' }, content: [p(t('Read me'))] };
    expect(md(panel)).toBe('> [!NOTE]\n> Read me');
    expect(markdownToAdf(md(panel))).toEqual(doc(panel));
  });

  it('writes an expand as its title and content, and media as placeholders', () => {
    expect(
      md(
        { type: 'expand', attrs: { title: 'Logs' }, content: [p(t('line'))] },
        {
          type: 'mediaSingle',
          attrs: { layout: 'center' },
          content: [{ type: 'media', attrs: { type: 'file', id: 'f1', collection: 'c' } }],
        },
        {
          type: 'mediaGroup',
          content: [{ type: 'media', attrs: { type: 'file', id: 'f2', collection: 'c', alt: 'report.pdf' } }],
        },
        {
          type: 'mediaSingle',
          content: [{ type: 'media', attrs: { type: 'external', url: 'https://img.io/x.png' } }],
        },
      ),
    ).toBe('**Logs**\n\nline\n\n[attachment]\n\n[attachment: report.pdf]\n\n![](https://img.io/x.png)');
  });

  it('keeps Cyrillic, CJK and emoji text unchanged', () => {
    expect(md(p(t('Ошибка: '), t('数据', strong), t(' 🚀')))).toBe('Ошибка: **数据** 🚀');
  });
});

describe('adfToMarkdown on what Jira sends', () => {
  it('writes a typical Jira Cloud description', () => {
    const fromJira = {
      type: 'doc',
      version: 1,
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [t('Context')] },
        p(
          { type: 'mention', attrs: { id: '557058:f58131cb', text: '@Grace Hopper', accessLevel: '' } },
          t(' please look at '),
          { type: 'inlineCard', attrs: { url: 'https://acme.atlassian.net/browse/OPS-12' } },
          t(' '),
          { type: 'emoji', attrs: { shortName: ':warning:', id: 'atlassian-warning', text: ':warning:' } },
        ),
        { type: 'paragraph', content: [] },
        {
          type: 'panel',
          attrs: { panelType: 'info' },
          content: [p(t('Deploy window: '), { type: 'date', attrs: { timestamp: '1767916800000' } })],
        },
        {
          type: 'table',
          attrs: { isNumberColumnEnabled: false, layout: 'default', localId: 'a1' },
          content: [
            {
              type: 'tableRow',
              content: [cell('tableHeader', t('Service', strong)), cell('tableHeader', t('Owner'))],
            },
            {
              type: 'tableRow',
              content: [
                cell('tableCell', t('api')),
                cell('tableCell', { type: 'mention', attrs: { id: '1', text: '@Ada' } }),
              ],
            },
          ],
        },
        {
          type: 'mediaSingle',
          attrs: { layout: 'center', width: 50 },
          content: [
            {
              type: 'media',
              attrs: { id: 'c0ffee', type: 'file', collection: '', width: 1200, height: 800 },
            },
          ],
        },
        {
          type: 'expand',
          attrs: { title: 'Stack trace' },
          content: [
            {
              type: 'codeBlock',
              attrs: { language: 'java' },
              content: [t('java.lang.NullPointerException\n\tat Main.run')],
            },
          ],
        },
        p(t('Status: '), { type: 'status', attrs: { text: 'BLOCKED', color: 'red', localId: 's1' } }),
      ],
    };
    expect(adfToMarkdown(fromJira)).toBe(
      [
        '## Context',
        '',
        '@Grace Hopper please look at <https://acme.atlassian.net/browse/OPS-12> :warning:',
        '',
        '> [!INFO]',
        '> Deploy window: 2026-01-09',
        '',
        '| **Service** | Owner |',
        '| - | - |',
        '| api | @Ada |',
        '',
        '[attachment]',
        '',
        '**Stack trace**',
        '',
        '```java',
        'java.lang.NullPointerException',
        '\tat Main.run',
        '```',
        '',
        'Status: [BLOCKED]',
      ].join('\n'),
    );
  });

  it('writes a cell holding lists, tasks and code on one line, parts apart by <br>', () => {
    const tasks = {
      type: 'taskList',
      attrs: { localId: 'l' },
      content: [
        { type: 'taskItem', attrs: { localId: 'a', state: 'DONE' }, content: [t('done')] },
        { type: 'taskItem', attrs: { localId: 'b', state: 'TODO' }, content: [t('open')] },
      ],
    };
    const bullets = { type: 'bulletList', content: [li(p(t('one'))), li(p(t('two')))] };
    const code = { type: 'codeBlock', content: [t('a\nb')] };
    const table = {
      type: 'table',
      content: [{ type: 'tableRow', content: [{ type: 'tableCell', content: [tasks, bullets, code] }] }],
    };
    expect(adfToMarkdown(doc(table))).toBe('| [x] done<br>[ ] open<br>one<br>two<br>`a b` |\n| - |');
  });

  it('writes emphasis inside a word so that it still reads as emphasis', () => {
    const md = adfToMarkdown(doc(p(t('re'), t('use', em), t('able'))));
    expect(md).toBe('re*use*able');
    expect(markdownToAdf(md)).toEqual(doc(p(t('re'), t('use', em), t('able'))));
  });

  it('writes a single node that is not a document', () => {
    expect(adfToMarkdown(p(t('just a paragraph')))).toBe('just a paragraph');
  });
});

describe('adfToMarkdown tolerance', () => {
  it('never throws on values that are not documents', () => {
    for (const value of [null, undefined, {}, [], 42, true, { type: 'doc' }, { type: 7 }, { content: [] }])
      expect(adfToMarkdown(value)).toBe('');
    expect(adfToMarkdown('already plain text')).toBe('already plain text');
  });

  it('reads malformed nodes as far as they go', () => {
    const broken = {
      type: 'doc',
      version: 1,
      content: [
        null,
        1,
        'loose',
        { type: 'paragraph', content: 'not an array' },
        {
          type: 'paragraph',
          content: [{ type: 'text' }, { type: 'text', text: 5 }, t('kept', { nope: 1 }, 'x')],
        },
        { type: 'heading', attrs: { level: 'x' }, content: [t('h')] },
        { type: 'heading', attrs: { level: 9 }, content: [t('deep')] },
        { type: 'bulletList' },
        { type: 'orderedList', attrs: { order: -3 }, content: [li(p(t('o')))] },
        {
          type: 'table',
          content: [
            { type: 'tableRow', content: [cell('tableHeader', t('a')), cell('tableHeader', t('b'))] },
            { type: 'tableRow' },
          ],
        },
        {
          type: 'paragraph',
          content: [t('l', { type: 'link' }), { type: 'date', attrs: { timestamp: 'soon' } }],
        },
      ],
    };
    expect(adfToMarkdown(broken)).toBe(
      'kept\n\n# h\n\n###### deep\n\n0. o\n\n| a | b |\n| - | - |\n| | |\n\nl',
    );
  });

  it('falls back to the plain text of a document nested deeper than the stack', () => {
    let deep: unknown = p(t('bottom'));
    for (let depth = 0; depth < 50_000; depth += 1) deep = { type: 'blockquote', content: [deep] };
    expect(adfToMarkdown(doc(p(t('top')), deep))).toBe('top\nbottom');
  });

  it('falls back to the plain text of a document holding a cycle (built in memory, not JSON)', () => {
    const loop: { type: string; content: unknown[] } = { type: 'blockquote', content: [p(t('again'))] };
    loop.content.push(loop);
    expect(adfToMarkdown(doc(loop))).toBe('again');
  });

  it('reads unknown nodes as their text, and unknown containers as their blocks', () => {
    expect(
      adfToMarkdown(
        doc(
          {
            type: 'futureBlock',
            content: [t('inside '), { type: 'futureInline', attrs: { text: 'attr text' } }],
          },
          {
            type: 'layoutSection',
            content: [
              { type: 'layoutColumn', attrs: { width: 50 }, content: [p(t('left'))] },
              {
                type: 'layoutColumn',
                attrs: { width: 50 },
                content: [{ type: 'extension', attrs: { extensionKey: 'k' } }, p(t('right'))],
              },
            ],
          },
          p(
            t('a '),
            { type: 'inlineExtension', attrs: { text: 'macro' } },
            { type: 'placeholder', attrs: { text: 'Type here' } },
          ),
        ),
      ),
    ).toBe('inside attr text\n\nleft\n\nright\n\na macro');
  });
});

describe('round trips', () => {
  const description = [
    '## Summary',
    '',
    'Login fails for users whose name has **non-ASCII** letters (e.g. *Анна*, 李雷) since `v2.3.0`.',
    'See [the incident](https://status.example.com/incidents/42) and PROJ-17.',
    '',
    '### Steps to reproduce',
    '',
    '1. Create a user named `Zoë`',
    '2. Log in with SSO',
    '   - on Chrome',
    '   - on Firefox',
    '3. Watch the error',
    '',
    '```json',
    '{ "error": "invalid_name", "user": "Zoë" }',
    '```',
    '',
    '> [!WARNING]',
    '> Affects ~~all~~ **most** tenants',
    '',
    '| Browser | Result |',
    '| - | - |',
    '| Chrome | fails |',
    '| Firefox | fails<br>after retry |',
    '',
    '- [x] reproduce',
    '- [ ] fix the name check',
    '  - [ ] add a test 🧪',
    '',
    '---',
    '',
    '> Reported by support',
  ].join('\n');

  it('gives back the markdown of a realistic issue description, through a valid document', () => {
    const converted = markdownToAdf(description);
    expect(adfProblems(converted)).toEqual([]);
    expect(adfToMarkdown(converted)).toBe(description);
  });

  it('gives back the same document from its own markdown', () => {
    const converted = markdownToAdf(description);
    expect(markdownToAdf(adfToMarkdown(converted))).toEqual(converted);
  });

  it('makes valid documents out of awkward markdown', () => {
    const samples = [
      '- > quote in a list\n- # heading in a list\n-\n- | a |\n  | - |\n  | b |',
      '> | t |\n> | - |\n> | c |\n>\n> ---\n>\n> - [ ] task in a quote',
      '1. [ ] ordered task\n   ```\n   code under a task\n   ```\n   - plain under a task',
      '**`a`** ~~_`b`_~~ [](https://empty.link) ![]() <br/> &nbsp; \\*',
      '```\n\n```\n\n<!-- comment -->\n\n[^x]\n\n[^x]:\n',
      '> [!UNKNOWN]\n> stays a quote\n\n> [!NOTE]',
    ];
    for (const sample of samples) expect(adfProblems(markdownToAdf(sample)), sample).toEqual([]);
  });
});

describe('isAdfDocument', () => {
  it('recognises a document by its type and content array', () => {
    expect(isAdfDocument(markdownToAdf('x'))).toBe(true);
    expect(isAdfDocument({ type: 'doc', content: [] })).toBe(true);
    for (const value of [null, 'doc', [], { type: 'doc' }, { type: 'paragraph', content: [] }])
      expect(isAdfDocument(value)).toBe(false);
  });
});
