// Token efficiency of the output formats on recorded GitHub issue payloads (@octokit/fixtures), against the raw
// API JSON a naive MCP server would return, with a check that no issue field present in the data is lost.
import { readFileSync } from 'node:fs';
import { encode } from '@toon-format/toon';
import { type IssueShape, OUTPUT_FORMATS, type OutputFormat } from '../../src/contract/index.js';
import { countTokens, renderStructured } from '../../src/format/index.js';
import { type GitHubIssueJson, issueFromGitHub } from '../../src/plugins/github/issue-shape.js';
import { TOKEN_SCENARIOS, githubFixture } from './inputs.js';
import { table } from './report.js';

/** Largest share of the raw pretty JSON's tokens each format may use. */
export const TOKEN_TARGETS_PERCENT = { compact: 20, markdown: 35 } as const;

// Large enough that nothing is trimmed: the bench measures the formats, not the budget.
const UNLIMITED_BUDGET = 10_000_000;

export interface ScenarioTokens {
  scenario: string;
  issues: number;
  /** The raw items as JSON with 2-space indentation. */
  rawJsonTokens: number;
  rawToonTokens: number;
  formatTokens: Record<OutputFormat, number>;
  /** Each of the above as a percentage of rawJsonTokens, one decimal. */
  percentOfRaw: Record<OutputFormat | 'rawToon', number>;
  meetsTargets: { compact: boolean; markdown: boolean };
  /** "#13 createdAt" for each IssueShape field present in the data but missing from the output. */
  missingFields: { compact: string[]; markdown: string[] };
}

export interface TokenReport {
  tokenizer: string;
  targetsPercent: typeof TOKEN_TARGETS_PERCENT;
  scenarios: ScenarioTokens[];
  /** Every scenario meets both targets and loses no field. */
  allMet: boolean;
}

interface FixtureRequest {
  method: string;
  path: string;
  status: number;
  response: unknown;
}

/** The issues the scenario's GET requests returned, in order, and the total the API reported. */
function loadIssues(scenario: string): { issues: GitHubIssueJson[]; total: number } {
  const requests = JSON.parse(readFileSync(githubFixture(scenario), 'utf8')) as FixtureRequest[];
  const issues: GitHubIssueJson[] = [];
  let total: number | undefined;
  for (const request of requests) {
    if (request.method.toLowerCase() !== 'get' || request.status !== 200) continue;
    const body = request.response;
    if (Array.isArray(body)) issues.push(...(body as GitHubIssueJson[]));
    else if (
      typeof body === 'object' &&
      body !== null &&
      Array.isArray((body as { items?: unknown }).items)
    ) {
      const search = body as { items: GitHubIssueJson[]; total_count?: number };
      issues.push(...search.items);
      total = search.total_count;
    }
  }
  return { issues, total: total ?? issues.length };
}

/** The values each present field must show as, in the item's own row or line. */
function expectedValues(issue: IssueShape): [string, string][] {
  const values: [string, string][] = [
    ['key', issue.key],
    ['title', issue.title],
    ['state', issue.state],
  ];
  const add = (field: string, value: string | undefined) => {
    if (value !== undefined) values.push([field, value]);
  };
  add('url', issue.url);
  add('author', issue.author);
  for (const name of issue.assignees ?? []) add('assignees', name);
  for (const name of issue.labels ?? []) add('labels', name);
  add('priority', issue.priority);
  add('type', issue.type);
  add('milestone', issue.milestone);
  add('parent', issue.parent);
  // Lists show the day; the fixtures' timestamps are UTC.
  add('createdAt', issue.createdAt?.slice(0, 10));
  add('updatedAt', issue.updatedAt?.slice(0, 10));
  add('closedAt', issue.closedAt?.slice(0, 10));
  add('commentCount', issue.commentCount === undefined ? undefined : String(issue.commentCount));
  // The excerpt starts with the body's first words.
  add('body', issue.body?.replace(/\s+/g, ' ').trim().slice(0, 20));
  for (const name of Object.keys(issue.customFields ?? {})) add('customFields', name);
  return values;
}

function missingFields(
  issues: readonly IssueShape[],
  text: string,
  format: 'compact' | 'markdown',
): string[] {
  const lines = text.split('\n');
  return issues.flatMap((issue) => {
    const row =
      format === 'compact'
        ? lines.find((line) => line.startsWith(`${issue.key}\t`))
        : lines.find((line) => line.startsWith(`| [${issue.key}](`) || line.startsWith(`| ${issue.key} |`));
    if (row === undefined) return [`${issue.key} (no row)`];
    return expectedValues(issue).flatMap(([field, value]) =>
      row.includes(value) ? [] : [`${issue.key} ${field}`],
    );
  });
}

const percent = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;

function measureScenario(scenario: string): ScenarioTokens {
  const { issues: raw, total } = loadIssues(scenario);
  const issues = raw.map(issueFromGitHub);
  const data = { kind: 'issue_list', items: issues, page: { offset: 0, total } };
  const rawJsonTokens = countTokens(JSON.stringify(raw, null, 2));
  const rawToonTokens = countTokens(encode(raw));
  const texts = Object.fromEntries(
    OUTPUT_FORMATS.map((format) => [
      format,
      renderStructured(data, format, { budgetTokens: UNLIMITED_BUDGET }).text,
    ]),
  ) as Record<OutputFormat, string>;
  const formatTokens = Object.fromEntries(
    OUTPUT_FORMATS.map((format) => [format, countTokens(texts[format])]),
  ) as Record<OutputFormat, number>;
  const percentOfRaw = {
    rawToon: percent(rawToonTokens, rawJsonTokens),
    ...(Object.fromEntries(
      OUTPUT_FORMATS.map((format) => [format, percent(formatTokens[format], rawJsonTokens)]),
    ) as Record<OutputFormat, number>),
  };
  return {
    scenario,
    issues: issues.length,
    rawJsonTokens,
    rawToonTokens,
    formatTokens,
    percentOfRaw,
    meetsTargets: {
      compact: percentOfRaw.compact <= TOKEN_TARGETS_PERCENT.compact,
      markdown: percentOfRaw.markdown <= TOKEN_TARGETS_PERCENT.markdown,
    },
    missingFields: {
      compact: missingFields(issues, texts.compact, 'compact'),
      markdown: missingFields(issues, texts.markdown, 'markdown'),
    },
  };
}

export function measureTokenEfficiency(): TokenReport {
  const scenarios = TOKEN_SCENARIOS.map(measureScenario);
  return {
    tokenizer: 'gpt-tokenizer o200k_base',
    targetsPercent: TOKEN_TARGETS_PERCENT,
    scenarios,
    allMet: scenarios.every(
      (s) =>
        s.meetsTargets.compact &&
        s.meetsTargets.markdown &&
        s.missingFields.compact.length === 0 &&
        s.missingFields.markdown.length === 0,
    ),
  };
}

export function formatTokenReport(report: TokenReport): string {
  const cell = (tokens: number, share: number) => `${tokens} (${share}%)`;
  const { compact, markdown } = report.targetsPercent;
  const verdict = (s: ScenarioTokens) => {
    const lost = [
      ...s.missingFields.compact.map((f) => `compact: ${f}`),
      ...s.missingFields.markdown.map((f) => `markdown: ${f}`),
    ];
    const targets = s.meetsTargets.compact && s.meetsTargets.markdown ? 'met' : 'MISSED';
    return `${s.scenario}: targets ${targets}; fields ${lost.length === 0 ? 'all kept' : `LOST ${lost.join(', ')}`}`;
  };
  return [
    `tokens of recorded GitHub issue lists (${report.tokenizer}); targets: compact ≤ ${compact}%, markdown ≤ ${markdown}% of the raw pretty JSON`,
    table(
      ['scenario', 'issues', 'raw JSON', 'raw TOON', ...OUTPUT_FORMATS],
      report.scenarios.map((s) => [
        s.scenario,
        String(s.issues),
        String(s.rawJsonTokens),
        cell(s.rawToonTokens, s.percentOfRaw.rawToon),
        ...OUTPUT_FORMATS.map((format) => cell(s.formatTokens[format], s.percentOfRaw[format])),
      ]),
    ),
    ...report.scenarios.map(verdict),
  ].join('\n');
}
