import { describe, expect, it } from 'vitest';
import { fieldName, fieldNames } from '../src/contract/index.js';
import { seededRandom as random } from './support/random.js';

const VALID = /^[a-z0-9_]{1,64}$/;

function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const sorted = <K>(names: Map<K, string>): [K, string][] =>
  [...names].sort(([a], [b]) => String(a).localeCompare(String(b)));

describe('fieldName', () => {
  it('keeps ASCII labels readable', () => {
    expect(fieldName('Story Points')).toBe('cf_story_points');
    expect(fieldName('  Due -- date (UTC)! ')).toBe('cf_due_date_utc');
    expect(fieldName('Sprint 42')).toBe('cf_sprint_42');
    expect(fieldName('already_snake_case')).toBe('cf_already_snake_case');
  });

  it('drops accents and folds compatibility forms', () => {
    expect(fieldName('Catégorie Élevée')).toBe('cf_categorie_elevee');
    expect(fieldName('Größe')).toBe('cf_grosse');
    expect(fieldName('ＡＢＣ１２³')).toBe('cf_abc123');
  });

  it('transliterates Russian and Ukrainian', () => {
    expect(fieldName('Приоритет')).toBe('cf_prioritet');
    expect(fieldName('Статус')).toBe('cf_status');
    expect(fieldName('Щука')).toBe('cf_shchuka');
    expect(fieldName('Ёлка')).toBe('cf_elka');
    expect(fieldName('Исполнитель задачи')).toBe('cf_ispolnitel_zadachi');
    expect(fieldName('Їжак і ґанок є')).toBe('cf_izhak_i_ganok_ye');
    expect(fieldName('Объём')).toBe('cf_obem');
  });

  it('transliterates Greek', () => {
    expect(fieldName('Προτεραιότητα')).toBe('cf_proteraiotita');
    expect(fieldName('Ψυχή')).toBe('cf_psychi');
  });

  it('spells other letters as code points', () => {
    expect(fieldName('优先级')).toBe('cf_u4f18_u5148_u7ea7');
    expect(fieldName('Due 日')).toBe('cf_due_u65e5');
    expect(fieldName('שלב')).toBe('cf_u5e9_u5dc_u5d1');
  });

  it('names a label with nothing readable "field"', () => {
    expect(fieldName('🚀🔥')).toBe('cf_field');
    expect(fieldName('')).toBe('cf_field');
    expect(fieldName('?!')).toBe('cf_field');
  });

  it('uses the prefix it is given and rejects one that cannot be part of a name', () => {
    expect(fieldName('Team', 'jira_')).toBe('jira_team');
    expect(fieldName('Team', '')).toBe('team');
    expect(() => fieldName('Team', 'Bad-')).toThrow('field name prefix "Bad-" must match');
  });

  it('cuts a long label to 64 characters ending in a stable hash', () => {
    const long = 'Very long custom field name '.repeat(8).slice(0, 200);
    const name = fieldName(long);
    expect(name).toMatch(VALID);
    expect(name).toHaveLength(64);
    expect(name).toMatch(/^cf_very_long_custom_field_name_.*_[0-9a-f]{6}$/);
    expect(fieldName(long)).toBe(name);
    expect(fieldName(`${long.slice(0, 199)}X`)).not.toBe(name);
    expect(fieldName('Щ'.repeat(200))).toMatch(/^cf_(shch)+[shc]*_[0-9a-f]{6}$/);
  });

  it('does not cut a name of exactly 64 characters', () => {
    const label = 'a'.repeat(61);
    expect(fieldName(label)).toBe(`cf_${label}`);
  });
});

describe('fieldNames', () => {
  it('keeps distinct readable names as they are', () => {
    const names = fieldNames([
      ['10001', 'Приоритет'],
      ['10002', 'Статус'],
      ['10003', 'Story Points'],
    ]);
    expect([...names]).toEqual([
      ['10001', 'cf_prioritet'],
      ['10002', 'cf_status'],
      ['10003', 'cf_story_points'],
    ]);
  });

  it('gives every member of a clashing group its own suffix', () => {
    const names = fieldNames([
      [1, 'Status'],
      [2, 'Статус'],
      [3, 'status'],
      [4, 'status!'],
      [5, 'Priority'],
    ]);
    const clashing = [1, 2, 3, 4].map((key) => names.get(key) as string);
    for (const name of clashing) expect(name).toMatch(/^cf_status_[0-9a-f]{6}$/);
    expect(new Set(clashing).size).toBe(4);
    expect(names.get(5)).toBe('cf_priority');
  });

  it('does not depend on the order of the fields', () => {
    const fields: [string, string][] = [
      ['a', 'Status'],
      ['b', 'Статус'],
      ['c', 'status'],
      ['d', 'Owner'],
      ['e', 'Owner'],
      ['f', '优先级'],
      ['g', '🚀'],
      ['h', '✨'],
      ['i', 'x'.repeat(100)],
      ['j', 'x'.repeat(100)],
    ];
    const expected = sorted(fieldNames(fields));
    const next = random(7);
    for (let i = 0; i < 20; i++) expect(sorted(fieldNames(shuffled(fields, next)))).toEqual(expected);
  });

  it('tells identical labels apart by their keys', () => {
    const names = fieldNames([
      ['customfield_10010', 'Team'],
      ['customfield_10020', 'Team'],
    ]);
    const [first, second] = [names.get('customfield_10010'), names.get('customfield_10020')];
    expect(first).toMatch(/^cf_team_[0-9a-f]{6}$/);
    expect(second).toMatch(/^cf_team_[0-9a-f]{6}$/);
    expect(first).not.toBe(second);
  });

  it('tells apart fields alike in label and in key text', () => {
    const names = fieldNames([
      [{ id: 1 }, 'Team'],
      [{ id: 2 }, 'Team'],
      [{ id: 3 }, 'Team'],
    ]);
    expect(new Set(names.values()).size).toBe(3);
  });

  it('resolves a suffixed name that clashes with a label spelled like one', () => {
    const plain = fieldNames([
      [1, 'Status'],
      [2, 'status'],
    ]);
    const taken = (plain.get(1) as string).slice('cf_'.length);
    const names = fieldNames([
      [1, 'Status'],
      [2, 'status'],
      [3, taken],
    ]);
    expect(new Set(names.values()).size).toBe(3);
    for (const name of names.values()) expect(name).toMatch(VALID);
  });

  it('keeps suffixed names of long and emoji-only labels within 64 characters', () => {
    const long = 'Ж'.repeat(200);
    const names = fieldNames([
      [1, long],
      [2, long],
      [3, '🚀'],
      [4, '🔥'],
      [5, ''],
    ]);
    expect(new Set(names.values()).size).toBe(5);
    for (const name of names.values()) expect(name).toMatch(VALID);
    expect(names.get(3)).toMatch(/^cf_field_[0-9a-f]{6}$/);
  });

  it('gives distinct names to 1000 distinct random unicode labels', () => {
    const next = random(42);
    const ranges: [number, number][] = [
      [0x20, 0x7e],
      [0xa0, 0x24f],
      [0x300, 0x36f],
      [0x370, 0x3ff],
      [0x400, 0x4ff],
      [0x590, 0x6ff],
      [0x4e00, 0x4e20],
      [0x1f300, 0x1f64f],
      [0x20000, 0x2a6df],
    ];
    const labels = new Set<string>();
    while (labels.size < 1000) {
      let label = '';
      const length = 1 + Math.floor(next() * (next() < 0.05 ? 120 : 8));
      for (let i = 0; i < length; i++) {
        const [low, high] = ranges[Math.floor(next() * ranges.length)] as [number, number];
        label += String.fromCodePoint(low + Math.floor(next() * (high - low + 1)));
      }
      labels.add(label);
    }
    // A few near-duplicates, which share a readable base.
    for (const label of ['Status', 'STATUS', 'status ', 'Статус', 'Σtatus']) labels.add(label);
    const names = fieldNames([...labels].map((label, index) => [index, label] as const));
    expect(names.size).toBe(labels.size);
    expect(new Set(names.values()).size).toBe(labels.size);
    for (const name of names.values()) expect(name).toMatch(VALID);
    for (const label of labels) expect(fieldName(label)).toMatch(VALID);
  });
});
