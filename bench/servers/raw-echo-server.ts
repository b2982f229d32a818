// The raw side's one server factory: the echo tools on a bare SDK v2 low-level Server, with no host in between.
// Both raw entries (raw-echo.ts over stdio, raw-echo-http.ts over Streamable HTTP) build every instance here.
import { ProtocolError, ProtocolErrorCode, Server, type Tool } from '@modelcontextprotocol/server';
import { echoResult, echoTools } from '../fixtures/echo-tools.js';

/**
 * Reads `<count> <prefix>...` from the command line and returns the factory; publishes `<prefix>__<tool>` for
 * each prefix, as Foresight names them. Exits with a usage line when the arguments are wrong.
 */
export function echoServerFactory(usage: string, argv: readonly string[]): () => Server {
  const [countArg = '1', ...prefixes] = argv;
  const count = Number(countArg);
  if (!Number.isInteger(count) || count < 1 || prefixes.length === 0) {
    process.stderr.write(`usage: ${usage} <count> <prefix>...\n`);
    process.exit(2);
  }
  // Built once: the factory runs per connection (stdio), per session or per request (HTTP), and the tool
  // list is the same for all of them, as a real server's would be.
  const tools: Tool[] = prefixes.flatMap((prefix) =>
    echoTools(count).map((tool) => ({ ...tool, name: `${prefix}__${tool.name}` })),
  );
  const names = new Set(tools.map((tool) => tool.name));
  return () => {
    const server = new Server({ name: 'raw-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', async () => ({ tools }));
    server.setRequestHandler('tools/call', async (request) => {
      const { name, arguments: args } = request.params;
      if (!names.has(name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown tool ${name}`);
      return echoResult(args ?? {});
    });
    return server;
  };
}
