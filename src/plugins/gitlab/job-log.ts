// A GitLab job log as read: the tail of a capped download, and the section markers GitLab writes into it.

export interface LogTail {
  text: string;
  /** Bytes dropped from the start to stay under the cap. */
  skippedBytes: number;
}

/** Reads a stream keeping only its last `maxBytes`: a failed job explains itself at the end. */
export async function readTail(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<LogTail> {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let skippedBytes = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    kept += value.byteLength;
    while (kept - (chunks[0]?.byteLength ?? 0) >= maxBytes && chunks.length > 1) {
      const dropped = chunks.shift();
      kept -= dropped?.byteLength ?? 0;
      skippedBytes += dropped?.byteLength ?? 0;
    }
  }
  let bytes = Buffer.concat(chunks);
  if (bytes.byteLength > maxBytes) {
    skippedBytes += bytes.byteLength - maxBytes;
    bytes = bytes.subarray(bytes.byteLength - maxBytes);
  }
  let text = bytes.toString('utf8');
  // A cut start is mid-line (maybe mid-character): begin at the next whole line.
  if (skippedBytes > 0) text = text.slice(text.indexOf('\n') + 1);
  return { text, skippedBytes };
}

/** GitLab's collapsible sections ("section_start:1700000000:step_script[collapsed=true]\r"), left out of the lines. */
export const SECTION_MARKER = /section_(?:start|end):\d+:[A-Za-z0-9_.-]+(?:\[[^\]]*\])?\r?/g;
