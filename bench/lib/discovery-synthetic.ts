// Synthetic tool catalogs for the discovery latency bench: deterministic from a seed, shaped like real MCP
// servers' tools (service prefix, verb and object in the name, a sentence of description, a few parameters, some
// with enums), with queries drawn from the same words.
import type { IndexableTool } from '../../src/discovery/index.js';

/** mulberry32: a small, fast, seeded generator. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SERVICES =
  'github gitlab jira linear clickup slack notion confluence sentry datadog pagerduty stripe hubspot salesforce zendesk asana trello figma vercel netlify aws gcp azure docker kubernetes postgres redis mongo elastic grafana'.split(
    ' ',
  );
const VERBS =
  'list get create update delete search find close merge assign archive export import sync add remove move rename approve comment'.split(
    ' ',
  );
const OBJECTS =
  'issue ticket pull_request merge_request pipeline build deployment release branch commit file page document channel message user team project repository label milestone sprint incident alert dashboard metric invoice customer contact deal order webhook secret'.split(
    ' ',
  );
const ADJECTIVES = 'open closed recent failed pending archived public private shared assigned'.split(' ');
const PARAMS =
  'id owner repo project query state status limit cursor title body assignee label branch since until page per_page sort order'.split(
    ' ',
  );

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

/** `count` tools with unique names. */
export function syntheticCatalog(count: number, seed: number): IndexableTool[] {
  const next = random(seed);
  const tools: IndexableTool[] = [];
  const names = new Set<string>();
  while (tools.length < count) {
    const service = pick(next, SERVICES);
    const verb = pick(next, VERBS);
    const object = pick(next, OBJECTS);
    let name = `${service}__${verb}_${object}`;
    for (let n = 2; names.has(name); n += 1) name = `${service}__${verb}_${object}_v${n}`;
    names.add(name);
    const properties: Record<string, object> = {};
    const paramCount = 1 + Math.floor(next() * 5);
    for (let i = 0; i < paramCount; i += 1) {
      const param = pick(next, PARAMS);
      properties[param] =
        next() < 0.3
          ? {
              type: 'string',
              enum: ADJECTIVES.filter(() => next() < 0.4),
              description: `The ${param} to filter by`,
            }
          : { type: 'string', description: `The ${object.replace('_', ' ')} ${param}` };
    }
    tools.push({
      name,
      description: `${verb[0]?.toUpperCase() ?? ''}${verb.slice(1)} ${pick(next, ADJECTIVES)} ${object.replace('_', ' ')}s in ${service}, with ${Object.keys(properties).join(', ')}.`,
      inputSchema: { type: 'object', properties },
    });
  }
  return tools;
}

/** `count` short requests in the catalogs' words. */
export function syntheticQueries(count: number, seed: number): string[] {
  const next = random(seed);
  const queries: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const object = pick(next, OBJECTS).replace('_', ' ');
    queries.push(
      next() < 0.5
        ? `${pick(next, VERBS)} the ${pick(next, ADJECTIVES)} ${object}s in ${pick(next, SERVICES)}`
        : `I need to ${pick(next, VERBS)} a ${object} and then ${pick(next, VERBS)} its ${pick(next, OBJECTS).replace('_', ' ')}`,
    );
  }
  return queries;
}
