// Test seam: spawn a stdio MCP server with its traffic recorded (stdio-recorder.mjs), and read that record.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const RECORDER = fileURLToPath(new URL('./stdio-recorder.mjs', import.meta.url));

/** A JSON-RPC message as recorded; only the members tests look at are typed. */
export interface WireMessage {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** The upstream table lines that spawn `node <script> <args>` with its traffic recorded under `file`. */
export function recordedServerToml(file: string, script: string, ...args: string[]): string[] {
  return [
    `command = ${JSON.stringify(['node', '--import', RECORDER, script, ...args])}`,
    `env = { MCP_RECORD_FILE = ${JSON.stringify(file)} }`,
  ];
}

/** What the server read (`in`) or wrote (`out`) so far: one message per complete line. */
export async function recorded(file: string, direction: 'in' | 'out'): Promise<WireMessage[]> {
  let text: string;
  try {
    text = await readFile(`${file}.${direction}`, 'utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n');
  lines.pop(); // the part after the last newline: empty, or a message still being written
  return lines.filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as WireMessage);
}
