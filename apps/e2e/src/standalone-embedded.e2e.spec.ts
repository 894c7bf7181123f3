import { rmSync } from 'node:fs';
import { ApiClient, aProduct, freePort, startApp, tempDir } from '@consign/testing';

/**
 * What a new user does: `npm start` with nothing configured (the embedded database, a generated
 * key), use it, Ctrl-C, start again: the data and the key are still there.
 */
describe('standalone on the embedded database', () => {
  const dataDir = tempDir('embedded');

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints the URL and a generated key, keeps data across restarts and stops cleanly on Ctrl-C', async () => {
    const port = await freePort();
    const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };

    const first = await startApp('standalone', env, /Press Ctrl-C to stop/);
    expect(first.output()).toContain(`http://localhost:${port}`);
    const apiKey = /API key of merchant 1 \(generated, saved under DATA_DIR\): ([^\s"]+)/.exec(
      first.output(),
    )?.[1];
    expect(apiKey).toBeDefined();
    const api = new ApiClient(`http://127.0.0.1:${port}`, apiKey);
    const created = await api.post<number>('/2025-07/cloud/product', aProduct());
    expect(created.status).toBe(200);
    expect(await first.stop('SIGINT')).toBe(0);

    const second = await startApp('standalone', env, /Press Ctrl-C to stop/);
    try {
      expect(second.output()).toContain(`API key of merchant 1: ${apiKey}`);
      const read = await api.get<{ id: number }>(`/2025-07/cloud/product/${created.body.data}`);
      expect(read.body.data?.id).toBe(created.body.data);
    } finally {
      expect(await second.stop('SIGTERM')).toBe(0);
    }
  });
});
