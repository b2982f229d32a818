// The ADF node types, and safe readers for ADF that arrives as untrusted JSON (Jira's, or anyone's).

export interface AdfMark {
  type: string;
  attrs?: Record<string, unknown>;
}
export interface AdfNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: AdfNode[];
  text?: string;
  marks?: AdfMark[];
}
export interface AdfDocument {
  type: 'doc';
  version: 1;
  content: AdfNode[];
}

/** True when the value looks like an ADF document ({type:'doc', content:[...]}). */
export function isAdfDocument(value: unknown): value is AdfDocument {
  const node = asNode(value);
  return node?.type === 'doc' && Array.isArray(node.content);
}

/** The value as a node when it has at least a string `type`; otherwise undefined. */
export function asNode(value: unknown): AdfNode | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return typeof (value as { type?: unknown }).type === 'string' ? (value as AdfNode) : undefined;
}

/** The node's children that are nodes; a missing or malformed `content` reads as none. */
export function childrenOf(node: AdfNode): AdfNode[] {
  const content: unknown = node.content;
  return Array.isArray(content) ? content.flatMap((child) => asNode(child) ?? []) : [];
}

/** The node's marks that are marks; anything else in `marks` is skipped. */
export function marksOf(node: AdfNode): AdfMark[] {
  const marks: unknown = node.marks;
  return Array.isArray(marks) ? marks.flatMap((mark) => asNode(mark) ?? []) : [];
}

/** A string attribute, or undefined when it is absent or not a non-empty string. */
export function stringAttr(node: AdfNode | AdfMark, name: string): string | undefined {
  const attrs: unknown = node.attrs;
  if (typeof attrs !== 'object' || attrs === null) return undefined;
  const value = (attrs as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** An attribute that may be a number or a numeric string (Jira sends `timestamp` as a string). */
export function numberAttr(node: AdfNode, name: string): number | undefined {
  const attrs: unknown = node.attrs;
  if (typeof attrs !== 'object' || attrs === null) return undefined;
  const value = (attrs as Record<string, unknown>)[name];
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
}
