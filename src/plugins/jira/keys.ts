// Jira issue keys in the forms people write them: "PROJ-7", "proj-7", the issue's /browse/ URL, or a bare number
// when only one project is configured.
import { PluginError } from '../../contract/index.js';

const KEY = /^([A-Za-z][A-Za-z0-9_]*)-(\d+)$/;
const BROWSE_URL = /^https?:\/\/[^/]+(?:\/[^?#]*)?\/browse\/([A-Za-z][A-Za-z0-9_]*-\d+)(?:[/?#].*)?$/;
const NUMBER = /^#?(\d+)$/;

/** "PROJ-7" from any accepted form, or undefined. `soleProject` makes "7" and 7 mean PROJ-7. */
export function issueKeyOf(value: unknown, soleProject?: string): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) {
    return soleProject === undefined ? undefined : `${soleProject}-${value}`;
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const url = BROWSE_URL.exec(text)?.[1];
  const match = KEY.exec(url ?? text);
  if (match?.[1] !== undefined && match[2] !== undefined)
    return `${match[1].toUpperCase()}-${Number(match[2])}`;
  const number = NUMBER.exec(text)?.[1];
  return number !== undefined && soleProject !== undefined && Number(number) > 0
    ? `${soleProject}-${Number(number)}`
    : undefined;
}

/** The key, or an invalid_input error that says which forms work. */
export function parseIssueKey(value: unknown, param: string, soleProject?: string): string {
  const key = issueKeyOf(value, soleProject);
  if (key !== undefined) return key;
  const forms =
    soleProject === undefined ? '"PROJ-7" or the issue\'s URL' : `"${soleProject}-7", 7 or the issue's URL`;
  throw new PluginError(
    'invalid_input',
    `parameter "${param}" is ${JSON.stringify(value)}, which is not a Jira issue key; use ${forms}`,
  );
}

/** The project part of a key: "PROJ" of "PROJ-7". */
export const projectOfKey = (key: string): string => key.slice(0, key.lastIndexOf('-'));
