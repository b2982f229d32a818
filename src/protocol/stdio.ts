// stdio serving: one session over the process's stdin/stdout; the session ends when stdin closes.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Session } from './session.js';

export interface StdioServing {
  /** Resolves when the client closes stdin or the transport closes. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(session: Session): Promise<StdioServing> {
  const transport = new StdioServerTransport();
  let onClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  transport.onclose = () => {
    session.dispose();
    onClosed();
  };
  process.stdin.once('end', () => void transport.close());
  await session.server.connect(transport);
  return { closed, close: () => transport.close() };
}
