// What a spawned server leaves behind: the last lines of its stderr (its secrets cut out, each bounded) and how
// its process ended, so that a server that fails can be described in its own words.
import { StringDecoder } from 'node:string_decoder';

/** Lines kept: a crash's message and the few lines before it, without keeping a chatty server's whole log. */
export const STDERR_TAIL_LINES = 20;
/** Characters kept of one line: a message fits; a minified source line or a JSON dump is cut, with "…". */
export const STDERR_LINE_MAX_CHARS = 300;
/** Characters kept in all (about 4 KB): bounds what every restarting server holds however it writes. */
export const STDERR_TAIL_MAX_CHARS = 4096;

const REDACTED = '[redacted]';
const CUT = '…';
/** The shortest start of a secret dropped from a line's end: the host ignores secrets shorter than this too. */
const MIN_FRAGMENT = 4;
/** Terminal colour and cursor codes (CSI sequences), which servers write to stderr and messages should not. */
// eslint-disable-next-line no-control-regex -- the escape character is what this matches
const ANSI_ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]/g;

/** How the process ended: `code` when it exited, `signal` when a signal ended it. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The last lines one spawned process wrote to stderr, and its exit once it has ended. The values in `secrets`
 * (those the plugin passed to the process) are cut from every line before it is kept. The host redacts every
 * configured secret, in its encoded forms too, from error messages on the wire, from what the CLI prints (health
 * included) and from each line of the logger it makes; but a logger given to `createHost` in code, or health
 * read by a program embedding the host, does not pass that way.
 */
export class StderrTail {
  readonly #secrets: readonly string[];
  readonly #decoder = new StringDecoder('utf8');
  /** Characters of an unfinished line held before it is redacted: a secret that starts within the cap fits. */
  readonly #holdChars: number;
  #lines: string[] = [];
  #chars = 0;
  /** The line being written, up to `#holdChars`; `#overflow` when more of it was dropped. */
  #partial = '';
  #overflow = false;
  #exit: ProcessExit | undefined;
  #closing = false;

  constructor(secrets: readonly string[] = []) {
    this.#secrets = secrets.filter((secret) => secret.length > 0);
    this.#holdChars = STDERR_LINE_MAX_CHARS + Math.max(0, ...this.#secrets.map((secret) => secret.length));
  }

  /** Takes a chunk of stderr; returns the lines it completed, as kept (redacted and bounded). */
  write(chunk: Buffer | string): string[] {
    const text = typeof chunk === 'string' ? chunk : this.#decoder.write(chunk);
    const completed: string[] = [];
    const pieces = text.split('\n');
    for (let i = 0; i < pieces.length; i += 1) {
      this.#hold(pieces[i] ?? '');
      if (i < pieces.length - 1) {
        const line = this.#finishLine();
        if (line !== undefined) completed.push(line);
      }
    }
    return completed;
  }

  /** Records how the process ended, unless Foresight was ending it. */
  ended(exit: ProcessExit): void {
    if (!this.#closing) this.#exit = exit;
  }

  /**
   * Foresight is ending the process (a failed start, a shutdown): an exit from now on is its doing, and says
   * nothing of the server, so it is not recorded. One recorded already stays.
   */
  closing(): void {
    this.#closing = true;
  }

  /** How the process ended on its own, once it has. */
  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  /** The lines kept, oldest first, with a last unfinished one (a process may die mid-line). */
  lines(): string[] {
    const last = this.#partial.trim() === '' ? undefined : this.#bounded(this.#partial, true, this.#overflow);
    return last === undefined ? [...this.#lines] : [...this.#lines, last];
  }

  #hold(piece: string): void {
    const room = this.#holdChars - this.#partial.length;
    if (piece.length > room) this.#overflow = true;
    this.#partial += piece.slice(0, Math.max(0, room));
  }

  #finishLine(): string | undefined {
    const raw = this.#partial;
    const cut = this.#overflow;
    this.#partial = '';
    this.#overflow = false;
    if (raw.trim() === '') return undefined;
    const line = this.#bounded(raw, cut, cut);
    this.#lines.push(line);
    this.#chars += line.length;
    while (this.#lines.length > STDERR_TAIL_LINES || this.#chars > STDERR_TAIL_MAX_CHARS)
      this.#chars -= this.#lines.shift()?.length ?? 0;
    return line;
  }

  /**
   * Redacted first, then cut: cutting first could leave the start of a secret standing. A line held in part (too
   * long, or not finished yet) may end in the start of a secret, which no redaction matches: that is dropped.
   */
  #bounded(raw: string, inPart: boolean, cut = false): string {
    // Colour codes first: a secret written in colour is matched whole once they are gone.
    const whole = raw.replace(/\r$/, '').replace(ANSI_ESCAPE, '');
    const line = this.#redact(inPart ? this.#withoutSecretStart(whole) : whole).trimEnd();
    return line.length > STDERR_LINE_MAX_CHARS || cut
      ? `${line.slice(0, STDERR_LINE_MAX_CHARS - CUT.length)}${CUT}`
      : line;
  }

  /** `text` without an end that is the start of a secret (of at least MIN_FRAGMENT characters). */
  #withoutSecretStart(text: string): string {
    for (const secret of this.#secrets)
      for (let length = secret.length - 1; length >= MIN_FRAGMENT; length -= 1)
        if (text.endsWith(secret.slice(0, length))) return text.slice(0, text.length - length);
    return text;
  }

  #redact(text: string): string {
    return this.#secrets.reduce((redacted, secret) => redacted.split(secret).join(REDACTED), text);
  }
}
