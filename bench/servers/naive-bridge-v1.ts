// The upstream bench's naive one-hop proxy as it was on SDK 1.x (kept for comparison with earlier runs; the
// optional side BENCH_UPSTREAM_BRIDGE_V1=1): an SDK 1.x low-level Server over stdio whose tools/list and tools/call
// handlers forward to an SDK 1.x Client connected to a spawned server over stdio. Nothing else.
// Usage: node naive-bridge-v1.js <command> [args...]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  process.stderr.write('usage: naive-bridge-v1 <command> [args...]\n');
  process.exit(2);
}

const upstream = new Client({ name: 'naive-bridge', version: '1.0.0' });
// The upstream is up before this server reads its first request, so no request waits on the spawn.
await upstream.connect(
  new StdioClientTransport({ command, args, env: getDefaultEnvironment(), stderr: 'ignore' }),
);

const server = new Server({ name: 'naive-bridge', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, (request) => upstream.listTools(request.params));
server.setRequestHandler(CallToolRequestSchema, (request) => upstream.callTool(request.params));

// Exit when the client closes stdin, as Foresight does; closing the client ends the upstream too.
process.stdin.once('end', () => {
  void Promise.allSettled([server.close(), upstream.close()]).then(() => process.exit(0));
});
await server.connect(new StdioServerTransport());
