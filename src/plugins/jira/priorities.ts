// Priority words people use (urgent, high, normal, low) mapped to the instance's own priority names.

/** Each word's usual Jira names, best first; the position fallback covers instances that use none of them. */
const ALIASES: Readonly<Record<string, { names: string[]; rank: number }>> = {
  urgent: { names: ['Highest', 'Critical', 'Blocker', 'Urgent'], rank: 0 },
  highest: { names: ['Highest', 'Critical', 'Blocker'], rank: 0 },
  critical: { names: ['Critical', 'Highest', 'Blocker'], rank: 0 },
  high: { names: ['High', 'Major'], rank: 1 },
  normal: { names: ['Medium', 'Normal', 'Major'], rank: 2 },
  medium: { names: ['Medium', 'Normal'], rank: 2 },
  low: { names: ['Low', 'Minor'], rank: 3 },
  lowest: { names: ['Lowest', 'Trivial', 'Low'], rank: 4 },
};

/** The alias words, for descriptions. */
export const PRIORITY_WORDS = ['urgent', 'high', 'normal', 'low'] as const;

/**
 * The instance's priority for `value`: its own name (any case), an alias word's usual name, or else the name at
 * the alias's relative place in the instance's order (highest first). Undefined when nothing fits.
 */
export function resolvePriority(value: string, names: readonly string[]): string | undefined {
  const wanted = value.trim().toLowerCase();
  const own = names.find((name) => name.toLowerCase() === wanted);
  if (own !== undefined) return own;
  const alias = ALIASES[wanted];
  if (alias === undefined || names.length === 0) return undefined;
  for (const candidate of alias.names) {
    const found = names.find((name) => name.toLowerCase() === candidate.toLowerCase());
    if (found !== undefined) return found;
  }
  // Five ranks (highest … lowest) spread over however many priorities the instance has.
  return names[Math.round((alias.rank / 4) * (names.length - 1))];
}
