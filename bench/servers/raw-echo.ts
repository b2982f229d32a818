// Side A over stdio: the raw echo server on the SDK v2 stdio entry, which pins one instance per connection
// to the era the client opens with (initialize: 2025-11-25; a request with the _meta envelope: 2026-07-28).
// Usage: node raw-echo.js <count> <prefix>...
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { echoServerFactory } from './raw-echo-server.js';

const buildServer = echoServerFactory('raw-echo', process.argv.slice(2));
const handle = serveStdio(() => buildServer());

// Exit when the client closes stdin, as Foresight does (the exit also writes a --cpu-prof profile).
process.stdin.once('end', () => void handle.close().then(() => process.exit(0)));
