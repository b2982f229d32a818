// Reads the enrichers a plugin supplies and wraps them so their code runs in the plugin's scope and is checked.
import { describeThrown, errors, type PluginProvider, type ToolEnricher } from '../contract/index.js';
import { runInPluginScope } from './isolation.js';
import type { Mount } from './mount.js';

const METHODS = ['supportedCategories', 'enrichSchema', 'transformArgs'] as const;
const OPTIONAL_METHODS = [
  'transformResult',
  'valueModel',
  'projectArgs',
  'rateLimitHost',
  'isFresh',
  'watch',
] as const;

/** An enricher's own name, else its class name, else its place in the plugin's list. */
export function enricherName(enricher: ToolEnricher, index: number): string {
  if (typeof enricher.name === 'string' && enricher.name !== '') return enricher.name;
  const className = (enricher as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof className === 'string' && className !== '' && className !== 'Object'
    ? className
    : `#${index + 1}`;
}

/**
 * Calls `provider.enrichers()` once after build. Each method of each enricher then runs inside the
 * plugin's async scope, so an error that escapes it later is attributed to the plugin like any other.
 */
export function readPluginEnrichers(provider: PluginProvider, mount: Mount): ToolEnricher[] {
  if (!provider.enrichers) return [];
  const scope = {
    plugin: mount.name,
    target: `enrichers of plugin ${mount.label}`,
    fail: (error: unknown) => mount.logger.error({ err: describeThrown(error) }, 'enricher failed'),
  };
  let list: unknown;
  try {
    list = runInPluginScope(scope, () => provider.enrichers?.());
  } catch (error) {
    throw errors.pluginBuild(mount.label, `enrichers() threw: ${describeThrown(error)}`);
  }
  if (!Array.isArray(list)) throw errors.pluginBuild(mount.label, 'enrichers() must return an array');
  return list.map((item: unknown, index) => {
    const enricher = item as ToolEnricher;
    const missing = METHODS.filter(
      (method) => typeof (enricher as unknown as Record<string, unknown> | null)?.[method] !== 'function',
    );
    if (missing.length) {
      throw errors.pluginBuild(
        mount.label,
        `enricher ${index + 1} from enrichers() lacks ${missing.map((m) => `${m}()`).join(', ')}`,
      );
    }
    return wrapInScope(enricher, enricherName(enricher, index), scope);
  });
}

function wrapInScope(
  enricher: ToolEnricher,
  name: string,
  scope: Parameters<typeof runInPluginScope>[0],
): ToolEnricher {
  const wrapped: Record<string, unknown> = { name };
  for (const method of [...METHODS, ...OPTIONAL_METHODS]) {
    const fn = (enricher as unknown as Record<string, unknown>)[method];
    if (typeof fn !== 'function') continue;
    wrapped[method] = (...args: unknown[]) =>
      runInPluginScope(scope, () => (fn as (...a: unknown[]) => unknown).apply(enricher, args));
  }
  return wrapped as unknown as ToolEnricher;
}
