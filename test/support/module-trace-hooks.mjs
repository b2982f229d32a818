// The loader hooks of module-trace.mjs: they run on the loader's own thread and only note what is loaded.
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function load(url, context, nextLoad) {
  if (url.startsWith('file:')) appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
