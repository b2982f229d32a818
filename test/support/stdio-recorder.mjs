// Preloaded into a spawned stdio MCP server (`node --import <this file> server.js`): copies every chunk the
// server reads from stdin to `$MCP_RECORD_FILE.in` and every chunk it writes to stdout to `$MCP_RECORD_FILE.out`,
// so a test can see what really crossed the wire. The server itself is left as it is.
import { appendFileSync } from 'node:fs';

const file = process.env.MCP_RECORD_FILE;
if (file) {
  const stdout = process.stdout;
  const write = stdout.write;
  stdout.write = function (chunk, ...rest) {
    appendFileSync(`${file}.out`, chunk);
    return write.call(this, chunk, ...rest);
  };
  // Wrap the reader's 'data' listener when it is added, not before: listening here would start the flow
  // before the server listens, and lose what arrives meanwhile.
  const stdin = process.stdin;
  const on = stdin.on;
  stdin.on = function (event, listener) {
    if (event !== 'data') return on.call(this, event, listener);
    return on.call(this, event, (chunk) => {
      appendFileSync(`${file}.in`, chunk);
      listener(chunk);
    });
  };
}
