// Tells binary files from text the way git does: a NUL byte among the first 8000 bytes.
import { open } from 'node:fs/promises';

export const SNIFF_BYTES = 8000;

export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, SNIFF_BYTES).includes(0);
}

export async function isBinaryFile(real: string): Promise<boolean> {
  const handle = await open(real, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return looksBinary(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
