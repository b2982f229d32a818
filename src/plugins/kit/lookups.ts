// Names the agent gives (a milestone title…) → the provider's ids, from metadata loaded ahead; an unknown name lists the known ones.
import { PluginError } from '../../contract/index.js';

/**
 * The id of `name` in `known`. An unknown name is refused with the names there are, as in
 * `no open milestone "v9" in octo/repo; open milestones: "v1", "v2"`; `known` is undefined until the
 * metadata has loaded.
 */
export function lookupByName(
  kind: string,
  name: unknown,
  known: ReadonlyMap<string, number> | undefined,
  owner: string,
): number {
  const id = typeof name === 'string' ? known?.get(name) : undefined;
  if (id !== undefined) return id;
  const names = known
    ? [...known.keys()].map((each) => JSON.stringify(each)).join(', ') || 'none'
    : 'not loaded yet';
  throw new PluginError(
    'invalid_input',
    `no ${kind} ${JSON.stringify(name)} in ${owner}; ${kind}s: ${names}`,
  );
}

/**
 * The refusal of a value outside what a parameter allows, naming both: `cf_severity: "Hgh" is not one of
 * Critical, High, Medium, Low`. `allowed` is the list of values, or words for a kind ("a number"); `besides`
 * names other forms that are also taken ("(or 1-4)").
 */
export function notAllowed(
  param: string,
  given: unknown,
  allowed: readonly string[] | string,
  besides?: string,
): PluginError {
  const what = typeof allowed === 'string' ? allowed : `one of ${allowed.join(', ')}`;
  return new PluginError(
    'invalid_input',
    `${param}: ${JSON.stringify(given)} is not ${what}${besides ? ` ${besides}` : ''}`,
  );
}
