// Turns what jira.js (axios underneath) throws into the kit's provider-neutral failure, Jira's own words kept readable.
import type { HttpFailure } from '../kit/index.js';

/** jira.js wraps an answered request in an HttpException whose `response` holds the status and Jira's body. */
interface JiraErrorLike {
  name?: string;
  code?: string;
  status?: number;
  response?: { status?: number; data?: unknown } | string;
  /** The AxiosError under it, with the response headers. */
  cause?: { response?: { headers?: Record<string, unknown> } };
}

const ABORT_NAMES = new Set(['AbortError', 'TimeoutError', 'CanceledError']);

/** Jira's error body: general messages and field → message (`{"errorMessages":[…],"errors":{"summary":"…"}}`). */
interface JiraErrorBody {
  errorMessages?: unknown;
  errors?: unknown;
  message?: unknown;
}

/**
 * Jira's words made readable: each general message, then each field error as `field: message`, the field
 * named as the agent knows it (`cf_severity` rather than customfield_10042) when `fieldLabel` knows it.
 */
export function readableJiraBody(
  data: unknown,
  fieldLabel: (fieldId: string) => string = (id) => id,
): string[] {
  if (typeof data === 'string') return data.trim() === '' ? [] : [data.trim().slice(0, 500)];
  if (data === null || typeof data !== 'object') return [];
  const body = data as JiraErrorBody;
  const messages = Array.isArray(body.errorMessages)
    ? body.errorMessages.filter((m): m is string => typeof m === 'string' && m !== '')
    : [];
  const fields =
    body.errors !== null && typeof body.errors === 'object'
      ? Object.entries(body.errors as Record<string, unknown>).map(
          ([field, message]) => `${fieldLabel(field)}: ${String(message)}`,
        )
      : [];
  const plain = typeof body.message === 'string' && body.message !== '' ? [body.message] : [];
  return [...messages, ...fields, ...(messages.length + fields.length === 0 ? plain : [])];
}

/** What a 400 was about, kept as its PluginError's cause: no words of Jira's, which may echo a secret. */
export interface JiraRefusal {
  status: number;
  /** Jira named a field (`errors: { customfield_10042: … }`) or a field or option in its messages. */
  namesField: boolean;
}

const FIELD_WORDS = /\b(field|option|customfield_\d+)/i;

export function refusalOf(error: unknown): JiraRefusal {
  const failure = (error ?? {}) as JiraErrorLike;
  const response = typeof failure.response === 'object' ? failure.response : undefined;
  const body = (response?.data ?? {}) as JiraErrorBody;
  const fieldErrors =
    body.errors !== null && typeof body.errors === 'object' && Object.keys(body.errors).length > 0;
  const messages = Array.isArray(body.errorMessages) ? body.errorMessages : [];
  return {
    status: response?.status ?? failure.status ?? 0,
    namesField: fieldErrors || messages.some((m) => typeof m === 'string' && FIELD_WORDS.test(m)),
  };
}

/** Whether an error is Jira's 400 about a field or an option: what may mean the metadata is out of date. */
export function refusedAField(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as Partial<JiraRefusal> | undefined) : undefined;
  return cause?.status === 400 && cause.namesField === true;
}

function header(error: JiraErrorLike, name: string): string | undefined {
  const value = error.cause?.response?.headers?.[name];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** Milliseconds Jira asks us to wait (Retry-After, in seconds), or undefined when it does not say. */
export function retryAfterMs(error: unknown): number | undefined {
  const seconds = Number(header((error ?? {}) as JiraErrorLike, 'retry-after'));
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

export function jiraFailure(
  error: unknown,
  signal: AbortSignal | undefined,
  fieldLabel?: (fieldId: string) => string,
  nowMs: number = Date.now(),
): HttpFailure {
  const failure = (error ?? {}) as JiraErrorLike;
  if (signal?.aborted || ABORT_NAMES.has(failure.name ?? '') || failure.code === 'ERR_CANCELED') {
    return { aborted: true };
  }
  const response = typeof failure.response === 'object' ? failure.response : undefined;
  const status = response?.status ?? (failure.name === 'HttpException' ? failure.status : undefined);
  if (status === undefined) return { networkCode: failure.code };
  const words = readableJiraBody(response?.data, fieldLabel);
  const wait = retryAfterMs(error);
  const [apiMessage, ...details] = words;
  return {
    status,
    ...(apiMessage === undefined ? {} : { apiMessage }),
    ...(details.length ? { details } : {}),
    rateLimited: status === 429,
    ...(wait === undefined ? {} : { rateLimitResetAt: new Date(nowMs + wait) }),
  };
}
