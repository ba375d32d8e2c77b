import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithApiKey, expectUnauthorized, oauthLogin } from '../auth/auth-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/chromium.js';
import { type OnboardedClient, onboardClient } from '../helpers/clients.js';

/** Screenshots for the record (gitignored); with UPDATE_DOCS=1 one of each page is copied into docs/images for the README. */
const SHOTS = new URL('../../test-screenshots/', import.meta.url);
const DOCS = new URL('../../docs/images/', import.meta.url);

// The page does not depend on the database: one run, on SQLite, keeps the browser test short.
describe('the client portal in a real browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let client: OnboardedClient;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package`);
    t = await buildTestApp({ dialect: 'sqlite' });
    client = await onboardClient(t, { name: 'Browser Co' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('the app is not listening on a TCP port');
    origin = `http://127.0.0.1:${address.port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    mkdirSync(SHOTS, { recursive: true });
    mkdirSync(DOCS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A fresh browser profile per test: no cookie of another. */
  async function open(): Promise<{ page: Page; urls: string[]; problems: string[] }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const urls: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    page.on('pageerror', (error) => problems.push(error.message));
    expect((await page.goto(`${origin}/portal`))?.status()).toBe(200);
    return { page, urls, problems };
  }

  const shot = async (page: Page, name: string) => {
    const file = new URL(`${name}.png`, SHOTS);
    await page.screenshot({ path: file.pathname, fullPage: true });
    // Only when asked, as the generated parts of the docs: a test run leaves the repository as it was.
    if (process.env.UPDATE_DOCS === '1') copyFileSync(file, new URL(`portal-${name}.png`, DOCS));
  };

  it('signs in with a key; shows the usage /v1/account/usage reports; creates a key, which works, and deletes it, which is then refused', async () => {
    const { page, urls, problems } = await open();
    await shot(page, 'sign-in');
    await page.getByLabel('API key', { exact: true }).fill(client.apiKey);
    const read = page.waitForResponse((response) => response.url().endsWith('/portal/api/usage'));
    await page.getByRole('button', { name: 'Sign in with the API key' }).click();
    const shown = (await (await read).json()) as { days: Array<{ date: string; requests: number; charged: number }> };
    await page.waitForSelector('#days tbody tr');

    // The table holds what /v1/account/usage answered the page, day by day.
    const rows = await page.$$eval('#days tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows.map((r) => [r[0], Number(r[1]), Number(r[2])])).toEqual(shown.days.map((d) => [d.date, d.requests, d.charged]));
    // And the API, asked directly afterwards, reports the same days, today with the calls since.
    const direct = (await t.app.inject({ method: 'GET', url: '/v1/account/usage', headers: { 'x-api-key': client.apiKey } })).json<typeof shown>();
    expect(direct.days.slice(0, -1)).toEqual(shown.days.slice(0, -1));
    expect(direct.days.at(-1)?.requests).toBeGreaterThan(shown.days.at(-1)?.requests ?? Infinity);
    await shot(page, 'usage');

    await page.getByLabel('Name', { exact: true }).fill('made in the browser');
    await page.getByRole('button', { name: 'Create a key' }).click();
    await page.waitForSelector('#created:not([hidden])');
    const key = (await page.textContent('#created-key')) ?? '';
    expect(key).toMatch(/^sdk_/);
    expect((await accountWithApiKey(t, key)).statusCode).toBe(200);
    await shot(page, 'keys');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete made in the browser' }).click();
    await page.locator('#key-list tbody tr', { hasText: 'made in the browser' }).waitFor({ state: 'detached' });
    expectUnauthorized(await accountWithApiKey(t, key), 'invalid_credentials');
    await page.waitForSelector('#audit-list tbody tr');
    await shot(page, 'audit-log');

    // No credential in a URL, in the page's storage, or in the log.
    for (const url of urls) expect(url).not.toContain(client.apiKey.slice(4, 24));
    const state = await page.context().storageState();
    expect(state.origins.flatMap((o) => o.localStorage)).toEqual([]);
    // The session cookie is HttpOnly (no script of the page can read it) and SameSite=Strict.
    expect(state.cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([['portal_session', true, 'Strict']]);
    expect(t.logs()).not.toContain(client.apiKey.slice(4, 24));
    expect(t.logs()).not.toContain(key.slice(4, 24));
    expect(problems).toEqual([]);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForSelector('#sign-in:not([hidden])');
  }, 60_000);

  it('signs in with client credentials; an inline script does not run', async () => {
    const { page } = await open();
    await page.getByLabel('client_id').fill(client.clientId);
    await page.getByLabel('Client secret', { exact: true }).fill(client.clientSecret);
    await page.getByRole('button', { name: 'Sign in with client credentials' }).click();
    await page.waitForSelector('#days tbody tr');
    // A client secret made on the page logs in, and once deleted (confirmed) no longer does.
    await page.getByLabel('Secret name', { exact: true }).fill('made in the browser');
    await page.getByRole('button', { name: 'Create a secret' }).click();
    await page.waitForSelector('#created-secret-box:not([hidden])');
    const secret = (await page.textContent('#created-secret')) ?? '';
    expect((await oauthLogin(t, client.clientId, secret)).statusCode).toBe(200);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete made in the browser' }).click();
    await page.locator('#secret-list tbody tr', { hasText: 'made in the browser' }).waitFor({ state: 'detached' });
    expectUnauthorized(await oauthLogin(t, client.clientId, secret), 'invalid_credentials');
    await shot(page, 'secrets');
    await page.addScriptTag({ content: 'window.inlineRan = true;' }).catch(() => undefined);
    expect(await page.evaluate(() => (globalThis as Record<string, unknown>).inlineRan)).toBeUndefined();
    const state = await page.context().storageState();
    expect(state.cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([['portal_session', true, 'Strict']]);
  }, 60_000);
});
