// The process logger: pino on stderr (never stdout, which may carry stdio MCP traffic), as JSON lines or as text.
import { pino } from 'pino';
import type { Logger } from '../contract/index.js';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

export interface LoggerOptions {
  /** Default: "info". */
  level?: LogLevel;
  /** Rewrites every serialized line before it is written; used to redact secret values. */
  redact?: (line: string) => string;
  /**
   * "json" (default): one pino JSON object per line, for a server whose stderr is collected. "text": one
   * `foresight: warn [plugin] message (key=value …)` line per record, for a person at a terminal.
   */
  format?: 'json' | 'text';
  /** In text form, a line of its own for some records (a retry as progress); undefined for the usual line. */
  describe?: (record: Record<string, unknown>) => string | undefined;
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/** Keys every record has, or that the text form shows in place: not repeated as key=value. */
const SHOWN_IN_PLACE = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg', 'plugin']);

function describeField(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

/** One JSON line from pino as the text a person reads. A line that is not a record passes as it is. */
export function textLogLine(line: string, describe?: LoggerOptions['describe']): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const own = describe?.(record);
  if (own !== undefined) return `${own}\n`;
  const level = LEVEL_NAMES[record.level as number] ?? String(record.level);
  const plugin = typeof record.plugin === 'string' ? ` [${record.plugin}]` : '';
  const fields = Object.entries(record)
    .filter(([key, value]) => !SHOWN_IN_PLACE.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${describeField(value)}`);
  const message = typeof record.msg === 'string' ? ` ${record.msg}` : '';
  return `foresight: ${level}${plugin}${message}${fields.length ? ` (${fields.join(' ')})` : ''}\n`;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const { level = 'info', redact, format = 'json', describe } = options;
  // A sync write to fd 2 keeps lines ordered with process exit and never touches stdout.
  const destination = pino.destination({ fd: 2, sync: true });
  const rewrite =
    format === 'text' ? (line: string) => textLogLine(redact ? redact(line) : line, describe) : redact;
  const stream = rewrite ? { write: (line: string) => destination.write(rewrite(line)) } : destination;
  return pino({ level, base: { name: 'foresight' } }, stream);
}
