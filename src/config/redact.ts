// The process-wide set of secret values read so far, and redaction of them from any text (logs, error messages).

/** Shorter values are not registered: replacing every "ab" in a log would hide more than it protects. */
export const MIN_SECRET_LENGTH = 4;
export const REDACTED = '[redacted]';

const secrets = new Set<string>();
/** Longest first, so a secret that contains another is replaced whole. */
let ordered: string[] = [];

/** Adds a value to the redaction set; values shorter than MIN_SECRET_LENGTH are ignored. */
export function registerSecret(value: string): void {
  if (value.length < MIN_SECRET_LENGTH || secrets.has(value)) return;
  secrets.add(value);
  ordered = [...secrets].sort((a, b) => b.length - a.length);
}

/** Replaces every registered secret value in `text` with "[redacted]". */
export function redactSecrets(text: string): string {
  let redacted = text;
  for (const secret of ordered) {
    if (redacted.includes(secret)) redacted = redacted.split(secret).join(REDACTED);
  }
  return redacted;
}

/**
 * Returns `value` with every registered secret replaced, through a JSON round trip, and `value` itself
 * when there are no secrets or none occurs in it (the common case costs one check).
 */
export function redactSecretsIn<T>(value: T): T {
  if (ordered.length === 0) return value;
  const json = JSON.stringify(value);
  if (json === undefined) return value;
  const redacted = redactSecrets(json);
  return redacted === json ? value : (JSON.parse(redacted) as T);
}
