// The upstream plugin's table: stdio or HTTP, never both, and the token read from the variable named.
import { describe, expect, it } from 'vitest';
import { UpstreamOptionsSchema } from '../src/plugins/upstream/index.js';
import { describeTarget, upstreamTarget } from '../src/plugins/upstream/options.js';

function problems(options: unknown): string[] {
  const parsed = UpstreamOptionsSchema.safeParse(options);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('upstream options', () => {
  it('takes a command, or a url with an optional token variable', () => {
    expect(problems({ command: ['node', 'server.js'], env: { A: '1' }, cwd: 'srv' })).toEqual([]);
    expect(problems({ url: 'http://127.0.0.1:3001/mcp', token_env: 'REMOTE_MCP_TOKEN' })).toEqual([]);
  });

  it('says what is wrong: neither or both, a token without a url, env without a command', () => {
    expect(problems({})).toEqual([': give either command (stdio) or url (Streamable HTTP), not both']);
    expect(problems({ command: ['x'], url: 'http://h/mcp' })).toEqual([
      ': give either command (stdio) or url (Streamable HTTP), not both',
    ]);
    expect(problems({ command: ['x'], token_env: 'T' })).toEqual(['token_env: token_env goes with url']);
    expect(problems({ url: 'http://h/mcp', env: { A: '1' } })).toEqual([
      'env: env, secret_env and cwd go with command',
    ]);
    expect(problems({ url: 'http://h/mcp', secret_env: { A: 'B' } })).toEqual([
      'secret_env: env, secret_env and cwd go with command',
    ]);
    expect(problems({ command: [] })).toEqual(['command: expected at least the program']);
    expect(problems({ url: 'ftp://h/mcp' })).toEqual([
      'url: expected an http(s) URL such as http://127.0.0.1:3001/mcp',
    ]);
    expect(problems({ command: ['x'], colour: 'red' })[0]).toContain('colour');
    expect(problems({ command: ['x'], protocol: '2025-06-18' })).toEqual([
      'protocol: expected one of "auto", "2025-11-25", "2026-07-28"',
    ]);
  });

  it('takes the task support of tools by name, and says which values are allowed', () => {
    expect(problems({ command: ['x'], tasks: { '*': 'optional', build: 'required' } })).toEqual([]);
    expect(problems({ command: ['x'], tasks: { build: 'sometimes' } })).toEqual([
      'tasks.build: expected one of "forbidden", "optional", "required"',
    ]);
  });

  it('carries the revision to speak, when one is pinned', () => {
    expect(upstreamTarget({ command: ['x'], protocol: '2025-11-25' }, {}).protocol).toBe('2025-11-25');
    expect(upstreamTarget({ url: 'http://h/mcp', protocol: '2026-07-28' }, {}).protocol).toBe('2026-07-28');
    expect(upstreamTarget({ command: ['x'] }, {}).protocol).toBeUndefined();
  });

  it('reads the token from the named variable, and never shows it', () => {
    const target = upstreamTarget(
      { url: 'https://mcp.example.com/mcp', token_env: 'REMOTE_MCP_TOKEN' },
      { REMOTE_MCP_TOKEN: 's3cret' },
    );
    expect(target).toMatchObject({ kind: 'http', token: 's3cret', tokenEnv: 'REMOTE_MCP_TOKEN' });
    expect(describeTarget(target)).toBe('https://mcp.example.com/mcp');
    expect(describeTarget(upstreamTarget({ command: ['npx', '-y', 'pkg', '.'] }))).toBe('npx -y pkg .');
  });

  it('gives the spawned command its secrets from the variables named, next to its plain env', () => {
    const target = upstreamTarget(
      { command: ['srv'], env: { MODE: 'fast' }, secret_env: { API_KEY: 'MY_API_KEY' } },
      { MY_API_KEY: 'k-123456' },
    );
    expect(target).toMatchObject({ kind: 'stdio', env: { MODE: 'fast', API_KEY: 'k-123456' } });
    expect(describeTarget(target)).toBe('srv');
  });
});
