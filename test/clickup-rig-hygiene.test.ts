// The ClickUp test rig keeps scenarios honest: a request the fake did not expect fails the scenario at close,
// and the token variable it sets is gone once the scenario ends.
import { describe, expect, it } from 'vitest';
import { TOKEN_ENV, startClickUpRig } from './support/fake-clickup.js';

describe('the clickup rig', () => {
  it('fails at close when the plugin sent a request no route expected', async () => {
    const rig = await startClickUpRig();
    await rig.metadataLoaded();
    await rig.call('get_issue', { key: '86a1b2c3d' });
    await expect(rig.close()).rejects.toThrow(
      /requests the fake did not expect[\s\S]*GET \/api\/v2\/task\/86a1b2c3d/,
    );
  });

  it('restores the token variable at close: unset stays unset, a value comes back', async () => {
    delete process.env[TOKEN_ENV];
    const first = await startClickUpRig();
    expect(process.env[TOKEN_ENV]).toBeDefined();
    await first.close();
    expect(process.env).not.toHaveProperty(TOKEN_ENV);
    process.env[TOKEN_ENV] = 'outer';
    try {
      const second = await startClickUpRig();
      await second.close();
      expect(process.env[TOKEN_ENV]).toBe('outer');
    } finally {
      delete process.env[TOKEN_ENV];
    }
  });
});
