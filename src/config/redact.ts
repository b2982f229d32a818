// The process-wide set of secret values read so far, with the forms they travel in, and their redaction from any
// text (logs, error messages) and from results, binary contents included.
import { isUtf8 } from 'node:buffer';
import { errors } from '../contract/index.js';
import { secretForms } from './secret-forms.js';

/** Shorter values are not registered: replacing every "ab" in a log would hide more than it protects. */
export const MIN_SECRET_LENGTH = 4;
export const REDACTED = '[redacted]';

const secrets = new Set<string>();
/** Bumped whenever the set of forms changes: a redacted copy made before then may miss a newer secret. */
let formsVersion = 0;
const forms = new Set<string>();
/** Longest first, so a form that contains another (a credential holding its token) is replaced whole. */
let ordered: string[] = [];
/** The same forms as UTF-8 bytes, to look for them in decoded binary content. */
let orderedBytes: Buffer[] = [];

/** Adds a value and its encoded forms (see secret-forms.ts) to the redaction set; short values are ignored. */
export function registerSecret(value: string): void {
  if (value.length < MIN_SECRET_LENGTH || secrets.has(value)) return;
  secrets.add(value);
  for (const form of secretForms(value)) if (form.length >= MIN_SECRET_LENGTH) forms.add(form);
  ordered = [...forms].sort((a, b) => b.length - a.length);
  orderedBytes = ordered.map((form) => Buffer.from(form, 'utf8'));
  formsVersion++;
}

/**
 * Registers `secret` and the HTTP Basic credential `user:secret`, whose base64 is what `Authorization: Basic …`
 * carries: a server that echoes the header back then leaks neither. The user alone is not registered (an email or
 * a login name is often shown on purpose); register it too when it is one.
 */
export function registerBasicCredential(user: string, secret: string): void {
  registerSecret(secret);
  if (secret !== '') registerSecret(`${user}:${secret}`);
}

/** Replaces every registered secret, in any of its forms, in `text` with "[redacted]". */
export function redactSecrets(text: string): string {
  let redacted = text;
  for (const form of ordered) {
    if (redacted.includes(form)) redacted = redacted.split(form).join(REDACTED);
  }
  return redacted;
}

/**
 * Returns `value` with every registered secret replaced in its strings (keys too), and `value` itself when there
 * are no secrets or none occurs in it. Binary contents (`blob`, and `data` of image and audio blocks, all base64)
 * are decoded and searched: UTF-8 text is redacted and encoded again, other bytes holding a secret are refused with
 * E_SECRET_IN_BINARY, since cutting bytes out of an image or an archive would hand over a corrupt file.
 */
export function redactSecretsIn<T>(value: T): T {
  if (ordered.length === 0) return value;
  return redactValue(value) as T;
}

const listingCopies = new WeakMap<object, { formsVersion: number; redacted: unknown }>();

/**
 * `redactSecretsIn` for a value that is replaced, never changed in place, when what it holds changes: a published
 * list, rebuilt when a plugin's tools change. Its redacted copy is kept with it (until a secret is registered), so
 * asking for the same list again does not search every description and schema again.
 */
export function redactSecretsInListing<T extends object>(value: T): T {
  if (ordered.length === 0) return value;
  const kept = listingCopies.get(value);
  if (kept?.formsVersion === formsVersion) return kept.redacted as T;
  const redacted = redactValue(value) as T;
  listingCopies.set(value, { formsVersion, redacted });
  return redacted;
}

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) {
    const out = value.map(redactValue);
    return out.some((item, i) => item !== value[i]) ? out : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (!isPlainObject(value)) {
    // What JSON would send of a class instance (a Date, an object with toJSON) is what gets searched.
    const json = JSON.stringify(value);
    return json === undefined ? value : redactValue(JSON.parse(json));
  }
  const record = value as Record<string, unknown>;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) {
    const redactedKey = redactSecrets(key);
    const redacted = isBinaryField(record, key, item)
      ? redactBinary(item, record.mimeType)
      : redactValue(item);
    if (redactedKey !== key || redacted !== item) changed = true;
    out[redactedKey] = redacted;
  }
  return changed ? out : value;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** MCP's base64 fields: a resource's `blob`, and the `data` of an image or audio content block. */
function isBinaryField(holder: Record<string, unknown>, key: string, item: unknown): item is string {
  if (typeof item !== 'string') return false;
  return key === 'blob' || (key === 'data' && (holder.type === 'image' || holder.type === 'audio'));
}

function redactBinary(base64: string, mimeType: unknown): string {
  const bytes = Buffer.from(base64, 'base64');
  if (!orderedBytes.some((form) => bytes.includes(form))) return redactSecrets(base64);
  if (isUtf8(bytes)) return Buffer.from(redactSecrets(bytes.toString('utf8')), 'utf8').toString('base64');
  throw errors.secretInBinary(typeof mimeType === 'string' ? mimeType : undefined);
}
