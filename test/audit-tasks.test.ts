// The audit line of a call that became a task: written when the call ends, not when the task is created.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createHost } from '../src/create-host.js';
import { createMemoryLogger } from './support/in-memory.js';
import { callJob, createdTask, untilStatus } from './support/task-wire.js';
import { taskPlugin } from './support/task-plugin.js';

async function linesOf(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('audit log and tasks', () => {
  it('writes the line of a task’s call once the call has ended, with its outcome', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'foresight-audit-'));
    const file = join(dir, 'audit.jsonl');
    const jobs = taskPlugin();
    const host = createHost({
      plugins: [{ plugin: jobs.plugin }],
      logger: createMemoryLogger(),
      planner: { enabled: false },
      tasks: { afterMs: 0 },
      audit: { enabled: true, file },
    });
    onTestFinished(async () => {
      await host.close();
      await rm(dir, { recursive: true, force: true });
    });
    const { url } = await host.serveHttp({ port: 0 });
    const task = createdTask(await callJob(url, 'held', { label: 'a' }));
    expect(await linesOf(file)).toEqual([]);
    jobs.open('a');
    await untilStatus(url, task.taskId, 'completed');
    expect(await linesOf(file)).toEqual([
      expect.objectContaining({
        tool: 'job__held',
        plugin: 'job',
        outcome: 'ok',
        speculative: false,
        era: 'modern',
        transport: 'http',
        principal: 'address:127.0.0.1',
      }),
    ]);
  });
});
