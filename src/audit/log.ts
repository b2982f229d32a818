// The audit log's sink: one JSON line per record, appended to a file or written to stderr, one write per line.
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { describeThrown, errors, type Logger } from '../contract/index.js';
import type { AuditRecord } from './record.js';

export interface AuditLogOptions {
  /** Absolute path of the file lines are appended to; default stderr (fd 2, beside pino's records). */
  file?: string;
  /** Applied to each line before it is written (the configured secrets' redaction). */
  redact: (line: string) => string;
  /** Hears, once, that a line could not be written. */
  logger: Logger;
}

const STDERR = 2;

export class AuditLog {
  private fd: number | undefined;
  private closed = false;
  private failed = false;

  constructor(private readonly options: AuditLogOptions) {}

  /** The file, if any: opened once, for appending (created when missing). Throws an error naming the file. */
  open(): void {
    if (this.fd !== undefined || this.closed) return;
    const { file } = this.options;
    if (file === undefined) {
      this.fd = STDERR;
      return;
    }
    try {
      this.fd = openSync(file, 'a');
    } catch (error) {
      throw errors.auditFileUnopenable(file, describeThrown(error));
    }
  }

  /**
   * Writes one line. A single synchronous write of the whole line, so lines never interleave with each other or
   * with pino's (also synchronous) records. A failure is logged once and never reaches the call.
   */
  write(record: AuditRecord): void {
    if (this.fd === undefined || this.closed) return;
    try {
      writeSync(this.fd, `${this.options.redact(JSON.stringify(record))}\n`);
    } catch (error) {
      if (this.failed) return;
      this.failed = true;
      this.options.logger.error(
        { file: this.options.file ?? 'stderr', err: describeThrown(error) },
        'audit: a line could not be written; later failures are not logged',
      );
    }
  }

  /** Flushes the file to disk and closes it; later lines are dropped. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined || fd === STDERR) return;
    try {
      fsyncSync(fd);
    } catch {
      // Not every file can be synced (a pipe, /dev/stdout); the lines are written already.
    }
    closeSync(fd);
  }
}
