// The naive one-hop proxy of the upstream bench, on SDK v2: a low-level Server served over stdio in both eras
// (`serveStdio` pins each connection to the era its client opens with) whose tools/list and tools/call handlers
// forward to a v2 Client connected to a spawned server over stdio. Nothing else (no names, deadlines, validation
// or catalog cache), so its cost is the floor any one-hop v2 proxy pays.
// Usage: node naive-bridge.js <command> [args...]
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  process.stderr.write('usage: naive-bridge <command> [args...]\n');
  process.exit(2);
}

// The client's default options: the 2025-11-25 initialize handshake, which every server speaks.
const upstream = new Client({ name: 'naive-bridge', version: '1.0.0' });
// The upstream is up before this server reads its first request, so no request waits on the spawn.
await upstream.connect(
  new StdioClientTransport({ command, args, env: getDefaultEnvironment(), stderr: 'ignore' }),
);

function build(): Server {
  const server = new Server({ name: 'naive-bridge', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', (request) => upstream.listTools(request.params));
  server.setRequestHandler('tools/call', (request) => upstream.callTool(request.params));
  return server;
}

const handle = serveStdio(build);

// Exit when the client closes stdin, as Foresight does; closing the client ends the upstream too.
process.stdin.once('end', () => {
  void Promise.allSettled([handle.close(), upstream.close()]).then(() => process.exit(0));
});
