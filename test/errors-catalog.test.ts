import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG, ERROR_KINDS } from '../src/contract/index.js';

const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');

describe('error catalog', () => {
  it('has unique codes with known kinds', () => {
    const codes = ERROR_CATALOG.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const entry of ERROR_CATALOG) {
      expect(entry.code).toMatch(/^E_[A-Z_]+$/);
      expect(ERROR_KINDS).toContain(entry.kind);
    }
  });

  it('documents every code in docs/errors.md, and nothing that no longer exists', () => {
    const documented = [...doc.matchAll(/^\|\s*`(E_[A-Z_]+)`\s*\|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(ERROR_CATALOG.map((e) => e.code).sort());
  });
});
