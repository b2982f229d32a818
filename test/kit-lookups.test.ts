// The kit's name lookups and argument readers: a milestone title → its id, refused with the names there are.
import { describe, expect, it } from 'vitest';
import { dispatchTo, int, lookupByName, notAllowed, str, strings } from '../src/plugins/kit/index.js';

describe('lookupByName', () => {
  const known = new Map([
    ['v1', 11],
    ['v2', 12],
  ]);

  it('gives the id of a known name', () => {
    expect(lookupByName('open milestone', 'v2', known, 'octo/repo')).toBe(12);
  });

  it('refuses an unknown name, listing the known ones, none, or that they have not loaded', () => {
    expect(() => lookupByName('open milestone', 'v9', known, 'octo/repo')).toThrow(
      'no open milestone "v9" in octo/repo; open milestones: "v1", "v2"',
    );
    expect(() => lookupByName('active milestone', 'v9', new Map(), 'group/project')).toThrow(
      'no active milestone "v9" in group/project; active milestones: none',
    );
    expect(() => lookupByName('open milestone', 'v1', undefined, 'octo/repo')).toThrow(
      'open milestones: not loaded yet',
    );
  });
});

describe('argument readers', () => {
  it('read what the schema let through, and fall back on anything else', () => {
    expect([str('a'), str(''), str(3)]).toEqual(['a', undefined, undefined]);
    expect([strings(['a', 1, 'b']), strings('a')]).toEqual([['a', 'b'], undefined]);
    expect([int(4, 0), int(4.7, 0), int('4', 9), int(Number.NaN, 9)]).toEqual([4, 4, 9, 9]);
  });

  it('notAllowed names the parameter, the value given and what is allowed', () => {
    const listed = notAllowed('cf_severity', 'Hgh', ['Critical', 'High', 'Medium', 'Low']);
    expect(listed).toMatchObject({
      kind: 'invalid_input',
      message: 'cf_severity: "Hgh" is not one of Critical, High, Medium, Low',
    });
    expect(notAllowed('priority', 'asap', ['urgent', 'low'], '(or 1-4)').message).toBe(
      'priority: "asap" is not one of urgent, low (or 1-4)',
    );
    expect(notAllowed('cf_budget', 'lots', 'a number').message).toBe('cf_budget: "lots" is not a number');
  });

  it('dispatchTo runs the handler a local tool name has, and refuses any other name, inherited ones too', async () => {
    const callTool = dispatchTo({
      get_issue: async (args) => ({ content: [{ type: 'text', text: `issue ${String(args.key)}` }] }),
    });
    const ctx = {} as Parameters<typeof callTool>[2];
    await expect(callTool('get_issue', { key: 'PROJ-7' }, ctx)).resolves.toEqual({
      content: [{ type: 'text', text: 'issue PROJ-7' }],
    });
    for (const name of ['get_issues', 'constructor', 'toString']) {
      await expect(callTool(name, {}, ctx)).rejects.toMatchObject({ kind: 'not_found' });
    }
  });
});
