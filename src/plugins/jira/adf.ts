// Markdown <-> Atlassian Document Format (ADF), the JSON Jira Cloud REST v3 uses for descriptions and comments.
export type { AdfDocument, AdfMark, AdfNode } from './adf-nodes.js';
export { isAdfDocument } from './adf-nodes.js';
export { markdownToAdf } from './adf-from-markdown.js';
export { adfToMarkdown } from './adf-to-markdown.js';
