// The error kinds and the error value every area and plugin throws; error-catalog.ts lists the codes.

export const ERROR_KINDS = [
  'invalid_input',
  'not_found',
  'conflict',
  'unavailable',
  'timeout',
  'internal',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export class ForesightError extends Error {
  override readonly name = 'ForesightError';
  /** Structured facts a client can act on (e.g. the capability a request needs), sent along where the wire allows. */
  readonly details?: Readonly<Record<string, unknown>>;
  constructor(
    readonly code: string,
    readonly kind: ErrorKind,
    message: string,
    options?: { cause?: unknown; details?: Readonly<Record<string, unknown>> },
  ) {
    super(message, options);
    if (options?.details) this.details = options.details;
  }
}

/** Duck-typed, so errors from a plugin built against another copy of the package keep their kind. */
export function isForesightError(value: unknown): value is ForesightError {
  if (value instanceof ForesightError) return true;
  if (!(value instanceof Error)) return false;
  const { code, kind } = value as Partial<ForesightError>;
  return typeof code === 'string' && (ERROR_KINDS as readonly unknown[]).includes(kind);
}

/** The code every PluginError carries; the catalog lists it. */
export const PLUGIN_REPORTED = 'E_PLUGIN_REPORTED';

/**
 * For plugin authors: throw `new PluginError('not_found', 'no note 42')` and the client sees that message,
 * with the kind deciding how it is reported (a tool error result, or -32602 / -32002 for other requests).
 */
export class PluginError extends ForesightError {
  constructor(kind: ErrorKind, message: string, options?: { cause?: unknown }) {
    super(PLUGIN_REPORTED, kind, message, options);
  }
}

/** A short, person-readable description of any thrown value (no stack). */
export function describeThrown(value: unknown): string {
  if (value instanceof Error) return value.message || value.name;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
