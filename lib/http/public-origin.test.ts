import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetEnvForTests } from '../env';

const configure = (vars: Record<string, string>) => {
  delete process.env.PUBLIC_URL;
  delete process.env.PORT;
  Object.assign(process.env, vars);
  resetEnvForTests();
};
afterEach(() => configure({}));
/** A fresh module per case: the arrival check runs once per process. */
const load = async () => {
  vi.resetModules();
  return import('./public-origin');
};
const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('PUBLIC_URL', () => {
  it('defaults to the origin the server listens on', async () => {
    configure({ PORT: '3917' });
    const { env } = await import('../env');
    expect(env().PUBLIC_URL).toBe('http://localhost:3917');
    expect((await load()).publicUrlLine()).toContain(
      'point to http://localhost:3917 (PUBLIC_URL is not set',
    );
  });

  it('says so at start-up when it names this machine on another port', async () => {
    configure({ PORT: '3917', PUBLIC_URL: 'http://localhost:3000' });
    const line = (await load()).publicUrlLine();
    expect(line).toMatch(/^\[web\] Warning: PUBLIC_URL is http:\/\/localhost:3000 but /);
    expect(line).toMatch(/ but this server listens on port 3917/);
    configure({ PORT: '3000', PUBLIC_URL: 'https://keyout.example.com' });
    expect((await load()).publicUrlLine()).toMatch(
      /^\[web\] Upload and result URLs point to https:\/\/keyout\.example\.com \(PUBLIC_URL\)/,
    );
  });

  it('warns once when requests arrive at another origin', async () => {
    configure({ PORT: '3917', PUBLIC_URL: 'http://localhost:3000' });
    const { arrivalWarning } = await load();
    const warning = arrivalWarning(request({ host: '127.0.0.1:3917' }));
    expect(warning).toMatch(/requests arrive at http:\/\/127\.0\.0\.1:3917 but /);
    expect(warning).toMatch(/ but upload and result URLs point to http:\/\/localhost:3000/);
    expect(arrivalWarning(request({ host: '127.0.0.1:3917' }))).toBeNull();
  });

  it(
    'is quiet when they arrive where it points (loopback names ' + 'alike, or through a proxy)',
    async () => {
      configure({ PORT: '3917' });
      expect((await load()).arrivalWarning(request({ host: '127.0.0.1:3917' }))).toBeNull();
      configure({ PORT: '3000', PUBLIC_URL: 'https://keyout.example.com' });
      expect(
        (await load()).arrivalWarning(
          request({
            host: '127.0.0.1:3000',
            'x-forwarded-host': 'keyout.example.com',
            'x-forwarded-proto': 'https',
          }),
        ),
      ).toBeNull();
      configure({ PORT: '3917' });
      expect((await load()).arrivalWarning(request({ host: '192.168.1.20:3917' }))).toMatch(
        /arrive at http:\/\/192\.168\.1\.20:3917/,
      );
    },
  );
});
