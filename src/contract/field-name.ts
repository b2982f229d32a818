// Turns labels from user data (Jira or ClickUp custom field names) into parameter names that are valid, readable and distinct.

const MAX_LENGTH = 64;
const PREFIX = /^[a-z0-9_]{0,32}$/;

// Letters that NFKD leaves whole. Russian spellings where Ukrainian differs (г, и); й, ё, ї and ў reach
// this table without their marks, as и, е, і and у.
const TRANSLIT = new Map(
  [
    'а:a б:b в:v г:g ґ:g д:d е:e є:ye ж:zh з:z и:i і:i к:k л:l м:m н:n о:o п:p р:r с:s т:t у:u ф:f х:kh',
    'ц:ts ч:ch ш:sh щ:shch ъ: ы:y ь: э:e ю:yu я:ya ђ:dj ј:j љ:lj њ:nj ћ:c џ:dz ѕ:dz',
    'α:a β:v γ:g δ:d ε:e ζ:z η:i θ:th ι:i κ:k λ:l μ:m ν:n ξ:x ο:o π:p ρ:r σ:s ς:s τ:t υ:y φ:f χ:ch ψ:ps ω:o',
    'ß:ss æ:ae œ:oe ø:o đ:d ð:d þ:th ł:l ı:i ħ:h',
  ]
    .join(' ')
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

/** FNV-1a (32-bit, over UTF-8) xor-folded to 24 bits: six hex digits that are the same on every run. */
function stableHash(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return (((hash >>> 24) ^ hash) & 0xffffff).toString(16).padStart(6, '0');
}

function readable(label: string, prefix: string): string {
  if (!PREFIX.test(prefix)) throw new Error(`field name prefix "${prefix}" must match ${PREFIX.source}`);
  let out = '';
  for (const char of label.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()) {
    if (/[a-z0-9]/.test(char)) out += char;
    else if (TRANSLIT.has(char)) out += TRANSLIT.get(char);
    // Each code point a token of its own, so "优先级" reads as three and never runs into a neighbour.
    else if (/[\p{L}\p{N}]/u.test(char)) out += `_u${(char.codePointAt(0) ?? 0).toString(16)}_`;
    else out += '_';
  }
  return prefix + (out.replace(/_+/g, '_').replace(/^_|_$/g, '') || 'field');
}

function withSuffix(name: string, hash: string): string {
  return `${name.slice(0, MAX_LENGTH - hash.length - 1).replace(/_+$/, '')}_${hash}`;
}

/**
 * A valid (`^[a-z0-9_]{1,64}$`, prefix included) and readable parameter name for a label: accents dropped,
 * Cyrillic and Greek transliterated, other letters as `u` + hex code point, anything else `_`. A name cut to
 * 64 characters ends in a hash of the label, so long labels stay apart. Two labels can still share a name
 * ("Status", "status"): use `fieldNames` for a set. The prefix (default `cf_`) must match `^[a-z0-9_]{0,32}$`.
 */
export function fieldName(label: string, prefix = 'cf_'): string {
  const name = readable(label, prefix);
  return name.length <= MAX_LENGTH ? name : withSuffix(name, stableHash(label));
}

/**
 * Distinct names for a set of fields. Fields whose `fieldName` would clash all get a hash suffix (of the
 * label, or of `String(key)` among identical labels), so each name depends on the set, not on its order.
 */
export function fieldNames<K>(
  fields: Iterable<readonly [key: K, label: string]>,
  prefix = 'cf_',
): Map<K, string> {
  const entries = [...fields].map(([key, label], index) => ({
    key,
    label,
    index,
    name: fieldName(label, prefix),
  }));
  for (let round = 0; ; round++) {
    const byName = new Map<string, typeof entries>();
    for (const entry of entries) {
      const group = byName.get(entry.name);
      if (group) group.push(entry);
      else byName.set(entry.name, [entry]);
    }
    const clashes = [...byName.values()].filter((group) => group.length > 1);
    if (clashes.length === 0) return new Map(entries.map((entry) => [entry.key, entry.name]));
    for (const group of clashes) {
      for (const entry of group) {
        const twin = group.some((other) => other !== entry && other.label === entry.label);
        // Later rounds only follow a hash clash, which a salt breaks. Only fields alike in label and in
        // String(key) need the input position, and for those order cannot matter anyway.
        let source = twin ? String(entry.key) : entry.label;
        if (round > 0) source += `\u0000${round}`;
        if (round > 4) source += `\u0000${entry.index}`;
        entry.name = withSuffix(readable(entry.label, prefix), stableHash(source));
      }
    }
  }
}
