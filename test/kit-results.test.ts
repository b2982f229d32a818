// The kit's answers to writes: a sentence a person reads over the shaped item or comment.
import { describe, expect, it } from 'vitest';
import { commentedResult, writtenResult } from '../src/plugins/kit/index.js';

describe('write answers', () => {
  it('names the written item and links it', () => {
    const item = { key: '#12', title: 'Fix the login', state: 'open', url: 'https://example.test/12' };
    const result = writtenResult('Created', { kind: 'issue', item } as never);
    expect(result.content).toEqual([
      { type: 'text', text: 'Created #12: Fix the login\nhttps://example.test/12' },
    ]);
    expect(result.structuredContent).toEqual({ kind: 'issue', item });
  });

  it('says where a comment went, with or without the comment the provider sent back', () => {
    const comment = {
      id: '1',
      author: 'ana',
      body: 'LGTM',
      createdAt: '2024-01-01',
      url: 'https://example.test/c1',
    };
    expect(commentedResult('!3', comment as never)).toEqual({
      content: [{ type: 'text', text: 'Commented on !3\nhttps://example.test/c1' }],
      structuredContent: { kind: 'comment_list', items: [comment] },
    });
    expect(commentedResult('src/a.ts:4 in !3', undefined)).toEqual({
      content: [{ type: 'text', text: 'Commented on src/a.ts:4 in !3' }],
      structuredContent: { kind: 'comment_list', items: [] },
    });
  });
});
