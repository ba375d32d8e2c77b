import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCredential } from '../../src/modules/auth/index.js';
import { createLogger } from '../../src/platform/logging.js';
import { DIALECTS } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { apiKeyLogin, pairOf } from '../auth/auth-helpers.js';

/**
 * `GET /sdk_<key>` and `?search=sdk_<key>` were logged verbatim. Anything shaped
 * like a credential — an `sdk_`/`sds_`/`sdr_` credential, a JWT — is redacted from the logged URL
 * wherever it appears: path, query value, any parameter name.
 */
describe.each(DIALECTS)('credentials in URLs never reach the log (%s)', (dialect) => {
  let t: Harness;
  let secrets: string[];
  let urls: string[];

  beforeAll(async () => {
    t = await harness({ dialect });
    const client = await t.client();
    const pair = pairOf(await apiKeyLogin(t, client.apiKey));
    secrets = [client.apiKey, client.clientSecret, pair.refresh_token, pair.access_token, generateCredential('apiKey')];
    const [apiKey, clientSecret, refreshToken, accessToken, unknownKey] = secrets as [string, string, string, string, string];
    urls = [
      `/${apiKey}`,
      `/v1/references/sports?search=${apiKey}`,
      `/v1/references/sports?search=${unknownKey}&page=1`,
      `/v1/references/sports?page=1&q=${clientSecret}`,
      `/v1/nothing/${refreshToken}/more`,
      `/v1/account/config?x=${accessToken}`,
      `/${accessToken}`,
      `/v1/references/sports?search=${encodeURIComponent(`key is ${apiKey}`)}`,
      // Percent-encoded underscore and dots: the same credential to anyone who decodes the log.
      `/v1/references/sports?search=${apiKey.replace('_', '%5F')}`,
      `/v1/references/sports?search=${accessToken.replaceAll('.', '%2E')}`,
      // Cut short, as a client that pasted part of one would: still not logged.
      `/v1/references/sports?search=${apiKey.slice(0, 24)}`,
    ];
    for (const url of urls) await t.as({ apiKey: client.apiKey }).get(url);
  });
  afterAll(async () => t.close());

  it('logs each of these requests, with the credential replaced', () => {
    const logged = t
      .logs()
      .split('\n')
      .filter((line) => line.includes('"incoming request"'))
      .map((line) => (JSON.parse(line) as { req: { url: string } }).req.url);
    expect(logged.length).toBeGreaterThanOrEqual(urls.length);
    for (const url of logged.slice(-urls.length)) expect(url, url).toMatch(/\[redacted\]/);
    expect(logged).toContain('/sdk_[redacted]');
    expect(logged).toContain('/v1/references/sports?search=sdk_[redacted]&page=1');
  });

  it('logs none of the credentials, nor a recognisable part of one', () => {
    const logs = t.logs();
    for (const secret of secrets) {
      expect(logs.includes(secret), `${secret.slice(0, 4)}… is in the log`).toBe(false);
      // The random part without its prefix, and for a JWT each of its segments.
      const parts = secret.startsWith('eyJ') ? secret.split('.') : [secret.slice(4, 28)];
      for (const part of parts) expect(logs.includes(part.slice(0, 24)), `part of ${secret.slice(0, 4)}… is in the log`).toBe(false);
    }
  });

  it('does not echo a credential in the path back in a 404 either', async () => {
    const res = await t.anonymous.get(`/${secrets[0] ?? ''}`);
    expect(res.statusCode).toBe(404);
    expect(res.json<{ error: { message: string } }>().error.message).toBe('no route for GET /sdk_[redacted]');
  });

  it('keeps the rest of the URL readable, and ordinary words alone', async () => {
    await t.anonymous.get('/v1/references/sports?search=sdk_docs&page=2');
    const last = t
      .logs()
      .split('\n')
      .filter((line) => line.includes('"incoming request"'))
      .at(-1);
    expect(JSON.parse(last ?? '{}')).toMatchObject({ req: { url: '/v1/references/sports?search=sdk_docs&page=2' } });
  });
});

describe('the standard OAuth endpoints’ form bodies never reach the log', () => {
  it('censors every credential field of a token or revocation form, wherever a body is logged', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    const form = {
      grant_type: 'refresh_token',
      client_id: 'c0ffee00-0000-4000-8000-000000000000',
      client_secret: generateCredential('clientSecret'),
      refresh_token: generateCredential('refreshToken'),
      token: generateCredential('refreshToken'),
    };
    logger.info({ body: form }, 'a form body');
    logger.info({ req: { body: form, headers: { authorization: 'Basic c2VjcmV0' } } }, 'a request');
    const logged = lines.join('');
    for (const secret of [form.client_secret, form.refresh_token, form.token, 'c2VjcmV0']) expect(logged).not.toContain(secret);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ body: { grant_type: 'refresh_token', token: '[redacted]', client_secret: '[redacted]' } });
  });
});
