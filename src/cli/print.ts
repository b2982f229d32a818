// How the commands print what they say about plugins: redacted text, a plugin's label, a counted noun.
import { redactSecrets } from '../config/index.js';
import type { MountedPlugin } from '../host/index.js';

export function pluginLabel(plugin: MountedPlugin): string {
  return `${plugin.name} (${plugin.id})`;
}

/**
 * What the commands print about plugins: their health and start errors come from providers, which may quote a
 * credential a server echoed back. Results and lists reach the commands already redacted by the protocol layer.
 */
export function print(stream: NodeJS.WriteStream, text: string): void {
  stream.write(redactSecrets(text));
}

export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
