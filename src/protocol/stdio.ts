// stdio serving: one session over the process's stdin/stdout; the session ends when stdin closes.
import type { Session } from './session.js';
import { LineStdioTransport } from './stdio-transport.js';

export interface StdioServing {
  /** Resolves when the client closes stdin or the transport closes. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(session: Session): Promise<StdioServing> {
  const transport = new LineStdioTransport();
  let onClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  transport.onclose = () => {
    session.dispose();
    onClosed();
  };
  await session.server.connect(transport);
  return { closed, close: () => transport.close() };
}
