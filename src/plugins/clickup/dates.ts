// A date without a time, as ClickUp keeps one: 4 am on that day in the time zone of the user who set it.
//
// ClickUp's "Date formatting" guide: "The start date and due date on tasks that don't have a start or due time
// will default to 4 am in the local time zone of the user who added the start or due date", and the API's
// timestamps are UTC. Sent as midnight UTC, a day shows as the day before to everyone west of UTC (midnight
// UTC is 7 pm the evening before in New York). So a YYYY-MM-DD goes out as 4 am in the token user's time zone
// (GET /user's `timezone`), the instant the app itself would store; when that zone is unknown or not one the
// runtime knows, noon UTC, which falls on the same calendar day from UTC-11 to UTC+11.
import type { RequestContext } from '../../contract/index.js';
import type { ClickUpUserJson } from './api-types.js';
import type { ToolDeps } from './tool-io.js';

/** The hour ClickUp gives a date without a time, in its user's zone. */
export const DAY_HOUR = 4;
const FALLBACK_UTC_HOUR = 12;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
export const isDay = (value: unknown): value is string => typeof value === 'string' && DAY.test(value.trim());

/** How far `timeZone`'s wall clock is ahead of UTC at `ms`; throws a RangeError for an unknown zone. */
function offsetMs(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(ms);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - Math.floor(ms / 1000) * 1000;
}

/** Unix ms of a YYYY-MM-DD as ClickUp keeps a date without a time (see the top of this file). */
export function dateOnlyMs(day: string, timeZone: string | undefined): number {
  const [, y, m, d] = DAY.exec(day.trim()) ?? [];
  const [year, month, date] = [Number(y), Number(m), Number(d)];
  if (timeZone) {
    try {
      const wall = Date.UTC(year, month - 1, date, DAY_HOUR);
      // Twice: the zone's offset at the first guess can differ from the one at the answer across a DST change.
      const first = wall - offsetMs(wall, timeZone);
      return wall - offsetMs(first, timeZone);
    } catch {
      // A zone this runtime does not know: fall through to noon UTC.
    }
  }
  return Date.UTC(year, month - 1, date, FALLBACK_UTC_HOUR);
}

/** The token user's time zone, read (once per instance) only when a call has a date without a time to send. */
export async function userTimeZone(deps: ToolDeps, ctx: RequestContext): Promise<string | undefined> {
  const user: ClickUpUserJson & { timezone?: unknown } = await deps.whoAmI(ctx);
  return typeof user.timezone === 'string' && user.timezone !== '' ? user.timezone : undefined;
}
