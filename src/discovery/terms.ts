// Splits text into the stemmed words the index compares: identifiers split (snake, kebab, camel, `__`),
// lowercase, stop words dropped, common English suffixes stripped.

/** Words too common to tell one tool from another. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been being but by can could do does did for from had has have he her him his how i if in ' +
    'into is it its me my of on or our she so some such than that the their them then there these they this those ' +
    'to too us was we were what when where which who whom why will with would you your yours please want wants ' +
    'need needs like also just any all about via using use'
  ).split(' '),
);

/** Splits text into lowercase words: on anything not a letter or digit, and inside camelCase and digit runs. */
export function words(text: string): string[] {
  const spaced = text
    .replace(/\b([A-Z]{2,})s\b/g, '$1')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-zA-Z])(\d)/g, '$1 $2')
    .replace(/(\d)([a-zA-Z])/g, '$1 $2');
  return spaced
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** A light suffix stripper: enough that "issues", "issue" and "issued" meet, and "creating" meets "create". */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let s = word;
  if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith('sses')) s = s.slice(0, -2);
  else if (s.endsWith('s') && !/(ss|us|is)$/.test(s)) s = s.slice(0, -1);
  if (s.length > 5 && s.endsWith('ing')) s = s.slice(0, -3);
  else if (s.length > 4 && s.endsWith('ed')) s = s.slice(0, -2);
  if (s.length > 4 && s.endsWith('e')) s = s.slice(0, -1);
  if (s.length > 3 && /([^aeiouslz])\1$/.test(s)) s = s.slice(0, -1);
  return s;
}

/** The stemmed content words of a text, in order, stop words left out. */
export function stems(text: string): string[] {
  return words(text)
    .filter((word) => !STOP_WORDS.has(word))
    .map(stem);
}
