// Guesses a file's MIME type from its extension, for resource contents.
import path from 'node:path';

const BY_EXTENSION: Readonly<Record<string, string>> = {
  '.c': 'text/x-c',
  '.cc': 'text/x-c++',
  '.cpp': 'text/x-c++',
  '.cs': 'text/x-csharp',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.gif': 'image/gif',
  '.go': 'text/x-go',
  '.h': 'text/x-c',
  '.hpp': 'text/x-c++',
  '.htm': 'text/html',
  '.html': 'text/html',
  '.ico': 'image/vnd.microsoft.icon',
  '.java': 'text/x-java',
  '.jpeg': 'image/jpeg',
  '.jpg': 'image/jpeg',
  '.js': 'text/javascript',
  '.cjs': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.jsx': 'text/javascript',
  '.kt': 'text/x-kotlin',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.pdf': 'application/pdf',
  '.php': 'text/x-php',
  '.png': 'image/png',
  '.py': 'text/x-python',
  '.rb': 'text/x-ruby',
  '.rs': 'text/x-rust',
  '.sh': 'text/x-shellscript',
  '.sql': 'application/sql',
  '.svg': 'image/svg+xml',
  '.toml': 'application/toml',
  '.ts': 'text/x-typescript',
  '.mts': 'text/x-typescript',
  '.cts': 'text/x-typescript',
  '.tsx': 'text/x-typescript',
  '.txt': 'text/plain',
  '.wasm': 'application/wasm',
  '.webp': 'image/webp',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.zip': 'application/zip',
};

/** Unknown extensions fall back on what the content showed: plain text or opaque bytes. */
export function guessMimeType(filePath: string, binary: boolean): string {
  return (
    BY_EXTENSION[path.extname(filePath).toLowerCase()] ?? (binary ? 'application/octet-stream' : 'text/plain')
  );
}
