// What one-shot commands print while they wait: a plugin's note that it retries a request becomes one plain line
// ("foresight: waiting for gh (github): retry 1 in 1 s after HTTP 502…"); every other log line stays as it is.

/** How a line names a plugin from its instance name (the `plugin` of its log records): `gh (github)`. */
export type PluginLabel = (name: string) => string;

interface RetryRecord {
  plugin?: unknown;
  retry?: { attempt?: unknown; waitMs?: unknown; why?: unknown };
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** Rewrites a serialized pino line: a retry note into a progress line, anything else unchanged. */
export function progressLines(labelOf: PluginLabel): (line: string) => string {
  return (line) => {
    // Cheap test first: most lines are not retry notes.
    if (!line.includes('"retry":{')) return line;
    let record: RetryRecord;
    try {
      record = JSON.parse(line) as RetryRecord;
    } catch {
      return line;
    }
    const { retry, plugin } = record;
    if (typeof retry?.attempt !== 'number' || typeof retry.waitMs !== 'number') return line;
    const who = typeof plugin === 'string' ? labelOf(plugin) : 'a plugin';
    const why = typeof retry.why === 'string' ? ` after ${retry.why}` : '';
    return `foresight: waiting for ${who}: retry ${retry.attempt} in ${seconds(retry.waitMs)}${why}…\n`;
  };
}
