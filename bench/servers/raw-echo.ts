// Side A: the same echo tools on a bare SDK low-level Server over stdio, with no host in between.
// Usage: node raw-echo.js <count> <prefix>... — publishes `<prefix>__<tool>` for each prefix, as Foresight names them.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { echoResult, echoTools } from '../fixtures/echo-tools.js';

const [countArg = '1', ...prefixes] = process.argv.slice(2);
const count = Number(countArg);
if (!Number.isInteger(count) || count < 1 || prefixes.length === 0) {
  process.stderr.write('usage: raw-echo <count> <prefix>...\n');
  process.exit(2);
}

const tools: Tool[] = prefixes.flatMap((prefix) =>
  echoTools(count).map((tool) => ({ ...tool, name: `${prefix}__${tool.name}` })),
);
const names = new Set(tools.map((tool) => tool.name));

const server = new Server({ name: 'raw-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (!names.has(name)) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${name}`);
  return echoResult(args ?? {});
});

// Exit when the client closes stdin, as Foresight does.
process.stdin.once('end', () => void server.close().then(() => process.exit(0)));
await server.connect(new StdioServerTransport());
