// The plugins and their tools as clients see them: argument validation, the config's tool rules, the plugin host
// and the enrichment pipeline over it.
import { EMBEDDED_DEFAULT, redactSecrets, registerBasicCredential, registerSecret } from '../config/index.js';
import type { Logger } from '../contract/index.js';
import {
  type ArgumentValidator,
  type RuleLog,
  type RuleReport,
  ToolPipeline,
  createArgumentValidator,
  createConfigRules,
  createRuleLog,
} from '../enrich/index.js';
import { createFormatEnricher } from '../format/index.js';
import { PluginHost } from '../host/index.js';
import type { CreateHostOptions } from './host-types.js';

export interface ToolChain {
  readonly validator: ArgumentValidator;
  readonly plugins: PluginHost;
  readonly tools: ToolPipeline;
  /** What each tool rule of the config matched, and what matches nothing. */
  checkRules(): RuleReport;
  /** Logs the rules that match nothing once started, and again whenever the tools change. */
  readonly ruleLog: RuleLog;
}

export function createToolChain(options: CreateHostOptions, logger: Logger): ToolChain {
  const validator = createArgumentValidator(
    (tool, reason) =>
      logger.warn({ tool, reason }, 'input schema cannot be compiled; arguments are passed unchecked'),
    redactSecrets,
  );
  const rules = createConfigRules({
    rules: options.config?.enrich ?? [],
    tables: options.config?.plugins ?? [],
    file: options.config?.file ?? EMBEDDED_DEFAULT,
    onWarning: (message) => logger.warn({}, message),
    checkParam: (schema, name, value) => validator.checkParam(schema, name, value),
    scopeGlobs: options.config?.auth?.toolScopes ?? [],
  });
  const plugins = new PluginHost({
    logger,
    secrets: { add: registerSecret, addBasicCredential: registerBasicCredential },
    publishTool: rules.publish,
    ...(options.shared?.pluginState ? { sharedState: options.shared.pluginState } : {}),
    ...(options.shared?.budgets?.rateLimits ? { rateLimits: options.shared.budgets.rateLimits } : {}),
  });
  const tools = new ToolPipeline({
    host: plugins,
    enrichers: [
      ...(options.enrichers ?? []),
      createFormatEnricher(options.config?.format),
      ...rules.enrichers,
    ],
    validator,
    logger,
  });
  const checkRules = () =>
    rules.report(plugins.mountedPlugins(), new Set(tools.listTools().map((tool) => tool.name)));
  return { validator, plugins, tools, checkRules, ruleLog: createRuleLog(checkRules, logger) };
}
