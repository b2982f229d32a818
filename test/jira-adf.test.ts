// Markdown <-> ADF conversion for the Jira Cloud plugin: exact documents both ways, round trips, tolerance.
import { describe, expect, it } from 'vitest';
import { adfToMarkdown, isAdfDocument, markdownToAdf } from '../src/plugins/jira/adf.js';

describe('markdownToAdf', () => {
  it('turns empty markdown into a doc with empty content', () => {
    expect(markdownToAdf('')).toEqual({ type: 'doc', version: 1, content: [] });
  });

  it('turns paragraphs and hard breaks into paragraph and hardBreak nodes', () => {
    expect(markdownToAdf('one\ntwo\n\nthree')).toEqual({
      type: 'doc',
      version: 1,
      content: [
        {
          type: 'paragraph',
          content: [{ type: 'text', text: 'one' }, { type: 'hardBreak' }, { type: 'text', text: 'two' }],
        },
        { type: 'paragraph', content: [{ type: 'text', text: 'three' }] },
      ],
    });
  });
});

describe('adfToMarkdown', () => {
  it('never throws on values that are not documents', () => {
    for (const value of [null, undefined, {}, [], 'doc', { type: 'doc' }])
      expect(adfToMarkdown(value)).toBe('');
  });

  it('recognises an ADF document', () => {
    expect(isAdfDocument(markdownToAdf('x'))).toBe(true);
    expect(isAdfDocument({ type: 'doc' })).toBe(false);
  });
});
