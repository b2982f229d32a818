// Finds the line of every key path in TOML source: the TOML parser gives values, not where their keys are.
// Runs only on text the parser accepted, so it is lenient: it never throws and always moves forward.
import { createKeyLines, formatKeyPath, type KeyLines } from './key-path.js';

type Segment = string | number;

const BARE_KEY = /[A-Za-z0-9_-]+/y;
const ESCAPES: Readonly<Record<string, string>> = {
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  e: '\u001b',
  '"': '"',
  '\\': '\\',
};

/** The first line (1-based) where each key path appears: headers, dotted keys, inline tables, array items. */
export function locateKeys(text: string): KeyLines {
  const scanner = new Scanner(text);
  scanner.document();
  return scanner.lines;
}

class Scanner {
  readonly lines = createKeyLines();
  private pos: number;
  private readonly lineStarts: number[] = [0];
  /** Elements seen so far of each array of tables ([[x]]), by formatted path. */
  private readonly tableArrays = new Map<string, number>();

  constructor(private readonly text: string) {
    this.pos = text.startsWith('\uFEFF') ? 1 : 0;
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') this.lineStarts.push(i + 1);
  }

  document(): void {
    let table: Segment[] = [];
    while (this.skipBlank()) {
      const start = this.pos;
      if (this.text[this.pos] === '[') table = this.header() ?? table;
      else this.keyValue(table);
      this.skipSpaces();
      this.skipComment();
      // Anything else left on the line is not ours to understand: move on rather than loop.
      if (this.pos === start || !this.atLineEnd()) this.skipLine();
    }
  }

  /** `[a.b]` or `[[a.b]]`; returns the table's path with array-of-tables indices filled in. */
  private header(): Segment[] | undefined {
    const line = this.lineAt(this.pos);
    const isArray = this.text.startsWith('[[', this.pos);
    this.pos += isArray ? 2 : 1;
    const keys = this.key();
    this.skipSpaces();
    if (!keys || !this.text.startsWith(isArray ? ']]' : ']', this.pos)) return undefined;
    this.pos += isArray ? 2 : 1;
    const path: Segment[] = [];
    keys.forEach((key, i) => {
      path.push(key);
      this.record(path, line);
      const id = formatKeyPath(path);
      const count = this.tableArrays.get(id);
      if (isArray && i === keys.length - 1) {
        this.tableArrays.set(id, (count ?? 0) + 1);
        path.push(count ?? 0);
      } else if (count !== undefined) {
        // [a.b] after [[a]] names a table inside the last element of a.
        path.push(count - 1);
      }
      this.record(path, line);
    });
    return path;
  }

  private keyValue(table: readonly Segment[]): void {
    const line = this.lineAt(this.pos);
    const keys = this.key();
    this.skipSpaces();
    if (!keys || this.text[this.pos] !== '=') return;
    this.pos++;
    const path = [...table];
    for (const key of keys) {
      path.push(key);
      this.record(path, line);
    }
    this.value(path);
  }

  private value(path: readonly Segment[]): void {
    this.skipSpaces();
    const text = this.text;
    const char = text[this.pos];
    if (char === '{') return this.inlineTable(path);
    if (char === '[') return this.array(path);
    if (text.startsWith('"""', this.pos)) return this.multilineString('"""');
    if (text.startsWith("'''", this.pos)) return this.multilineString("'''");
    if (char === '"' || char === "'") {
      this.quoted();
      return;
    }
    while (this.pos < text.length && !',]}#\r\n'.includes(text[this.pos] ?? '')) this.pos++;
  }

  private inlineTable(path: readonly Segment[]): void {
    this.pos++;
    while (this.skipBlank()) {
      if (this.text[this.pos] === '}') {
        this.pos++;
        return;
      }
      const start = this.pos;
      this.keyValue(path);
      this.skipBlank();
      if (this.text[this.pos] === ',') this.pos++;
      if (this.pos === start) this.pos++;
    }
  }

  private array(path: readonly Segment[]): void {
    this.pos++;
    for (let index = 0; this.skipBlank(); index++) {
      if (this.text[this.pos] === ']') {
        this.pos++;
        return;
      }
      const start = this.pos;
      const element = [...path, index];
      this.record(element, this.lineAt(this.pos));
      this.value(element);
      this.skipBlank();
      if (this.text[this.pos] === ',') this.pos++;
      if (this.pos === start) this.pos++;
    }
  }

  /** A dotted key: bare, "basic" or 'literal' parts, spaces allowed around the dots. */
  private key(): string[] | undefined {
    const parts: string[] = [];
    for (;;) {
      this.skipSpaces();
      const part = this.keyPart();
      if (part === undefined) return undefined;
      parts.push(part);
      this.skipSpaces();
      if (this.text[this.pos] !== '.') return parts;
      this.pos++;
    }
  }

  private keyPart(): string | undefined {
    const char = this.text[this.pos];
    if (char === '"' || char === "'") {
      const start = this.pos;
      this.quoted();
      const raw = this.text.slice(start + 1, this.pos - 1);
      return char === '"' ? decodeBasic(raw) : raw;
    }
    BARE_KEY.lastIndex = this.pos;
    const match = BARE_KEY.exec(this.text);
    if (!match) return undefined;
    this.pos += match[0].length;
    return match[0];
  }

  /** A one-line "basic" (with escapes) or 'literal' string; leaves pos after the closing quote. */
  private quoted(): void {
    const quote = this.text[this.pos];
    this.pos++;
    while (this.pos < this.text.length) {
      const char = this.text[this.pos];
      if (char === '\n') return;
      if (char === '\\' && quote === '"') this.pos += 2;
      else {
        this.pos++;
        if (char === quote) return;
      }
    }
  }

  private multilineString(delimiter: '"""' | "'''"): void {
    this.pos += 3;
    while (this.pos < this.text.length) {
      if (delimiter === '"""' && this.text[this.pos] === '\\') {
        this.pos += 2;
      } else if (this.text.startsWith(delimiter, this.pos)) {
        this.pos += 3;
        // Up to two more quotes right before the end belong to the string: """a""""" is a + "".
        for (let extra = 0; extra < 2 && this.text[this.pos] === delimiter[0]; extra++) this.pos++;
        return;
      } else {
        this.pos++;
      }
    }
  }

  /** Skips spaces, line ends and comments; false at the end of the text. */
  private skipBlank(): boolean {
    for (;;) {
      this.skipSpaces();
      const char = this.text[this.pos];
      if (char === '#') this.skipComment();
      else if (char === '\r' || char === '\n') this.pos++;
      else return this.pos < this.text.length;
    }
  }

  private skipSpaces(): void {
    while (this.text[this.pos] === ' ' || this.text[this.pos] === '\t') this.pos++;
  }

  private skipComment(): void {
    if (this.text[this.pos] !== '#') return;
    while (this.pos < this.text.length && this.text[this.pos] !== '\n') this.pos++;
  }

  private skipLine(): void {
    while (this.pos < this.text.length && this.text[this.pos] !== '\n') this.pos++;
    this.pos++;
  }

  private atLineEnd(): boolean {
    const char = this.text[this.pos];
    return char === undefined || char === '\n' || char === '\r';
  }

  private record(path: readonly Segment[], line: number): void {
    const id = formatKeyPath(path);
    if (!Object.hasOwn(this.lines, id)) this.lines[id] = line;
  }

  private lineAt(pos: number): number {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.lineStarts[middle] ?? 0) <= pos) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }
}

function decodeBasic(raw: string): string {
  const escape = /\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|x([0-9A-Fa-f]{2})|(.))/g;
  return raw.replace(
    escape,
    (whole: string, u4?: string, u8?: string, x2?: string, other?: string): string => {
      const hex = u4 ?? u8 ?? x2;
      if (hex !== undefined) return String.fromCodePoint(Number.parseInt(hex, 16));
      return (other !== undefined && Object.hasOwn(ESCAPES, other) ? ESCAPES[other] : undefined) ?? whole;
    },
  );
}
