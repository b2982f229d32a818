// The forms a secret travels in besides its own text: JSON-escaped, URL-encoded, and base64 (whole, or inside a
// longer base64 string such as an HTTP Basic credential or a binary blob).

/**
 * Shortest piece of a secret's base64 registered on its own: 8 characters (6 bytes of the secret) occur by chance
 * about once in 2^48 positions, so redacting them hides nothing else, and a shorter secret still has its whole form.
 */
const MIN_BASE64_CORE_CHARS = 8;

/**
 * Every form of `value` to redact, itself first. Base64 encodes each group of 3 bytes into 4 characters on its own,
 * so when the secret lies inside a longer encoded text it starts at one of 3 alignments, and at each alignment the
 * groups made only of secret bytes encode exactly as the base64 of those bytes alone: registering that core for
 * offsets 0, 1 and 2 redacts the secret wherever it sits, leaving at most 2 bytes at each end in mixed characters.
 */
export function secretForms(value: string): string[] {
  const forms = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]);
  const bytes = Buffer.from(value, 'utf8');
  addBase64(forms, bytes);
  for (let start = 0; start < 3; start++) {
    const groups = Math.floor((bytes.length - start) / 3);
    if (groups * 4 < MIN_BASE64_CORE_CHARS) continue;
    addBase64(forms, bytes.subarray(start, start + groups * 3));
  }
  return [...forms];
}

/** Both alphabets, without padding: "=" only closes the string, and the whole form is still found before it. */
function addBase64(forms: Set<string>, bytes: Buffer): void {
  forms.add(bytes.toString('base64').replace(/=+$/, ''));
  forms.add(bytes.toString('base64url'));
}
