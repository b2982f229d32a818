import { describe, expect, it } from 'vitest';
import type { OutputFormat } from '../src/contract/index.js';
import { renderStructured } from '../src/format/index.js';
import type { ShapedResult } from '../src/index.js';

const render = (data: ShapedResult, format: OutputFormat) =>
  renderStructured(data, format, { budgetTokens: 100_000 }).text;

describe('issue links in every format', () => {
  const detail: ShapedResult = {
    kind: 'issue',
    item: {
      key: '#5',
      title: 'Epic',
      state: 'open',
      links: [
        { key: '#6', relation: 'sub-issue', title: 'Child | one', state: 'closed' },
        { key: '#1', relation: 'parent' },
      ],
    },
  };

  it('lists each link with its relation, key, title and state', () => {
    expect(render(detail, 'markdown')).toBe(
      '## #5 Epic\n\n- **State:** open\n- **Links:** sub-issue #6 Child | one (closed); parent #1',
    );
    expect(render(detail, 'compact')).toBe(
      '#5 [open] Epic · links: sub-issue #6 Child | one (closed); parent #1',
    );
    expect(JSON.parse(render(detail, 'json'))).toEqual(detail);
  });

  it('escapes a link title inside a markdown table cell', () => {
    const list: ShapedResult = {
      kind: 'issue_list',
      items: [detail.kind === 'issue' ? detail.item : { key: '', title: '', state: '' }],
    };
    expect(render(list, 'markdown')).toContain('| sub-issue #6 Child \\| one (closed); parent #1 |');
  });
});
