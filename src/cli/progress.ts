// What one-shot commands print while they wait: a plugin's note that it retries a request becomes one plain line
// ("foresight: waiting for gh (github): retry 1 in 1 s after HTTP 502…"); other records keep their usual text form.

/** How a line names a plugin from its instance name (the `plugin` of its log records): `gh (github)`. */
export type PluginLabel = (name: string) => string;

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** The progress line of a retry record (see logRetry), or undefined for any other record. */
export function progressLine(labelOf: PluginLabel): (record: Record<string, unknown>) => string | undefined {
  return (record) => {
    const retry = record.retry as { attempt?: unknown; waitMs?: unknown; why?: unknown } | undefined;
    if (typeof retry?.attempt !== 'number' || typeof retry.waitMs !== 'number') return undefined;
    const who = typeof record.plugin === 'string' ? labelOf(record.plugin) : 'a plugin';
    const why = typeof retry.why === 'string' ? ` after ${retry.why}` : '';
    return `foresight: waiting for ${who}: retry ${retry.attempt} in ${seconds(retry.waitMs)}${why}…`;
  };
}
