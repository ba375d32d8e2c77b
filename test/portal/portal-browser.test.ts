import { copyFileSync, mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectUnauthorized } from '../auth/auth-helpers.js';
import { TEST_ADMIN_TOKEN } from '../helpers/app.js';
import type { OnboardedClient } from '../helpers/clients.js';
import { type Harness, harness } from '../helpers/harness.js';
import { expectNotLeaked, lowContrast, serveToBrowser, unlabelled } from './in-browser.js';

/** Screenshots for the record (gitignored); with UPDATE_DOCS=1 one of each page is copied into docs/images for the README. */
const SHOTS = new URL('../../test-screenshots/', import.meta.url);
const DOCS = new URL('../../docs/images/', import.meta.url);

interface Usage {
  limits: { per_day: number | null };
  days: Array<{ date: string; requests: number; by_group: Record<string, number> }>;
}
interface Hours {
  hours: Array<{ hour: string; requests: number }>;
  refusals: Array<{ minute: string; window: string; refusals: number }>;
}
interface ChartValues {
  x: number[];
  series: Record<string, number[]>;
  refusals?: number[];
  limit: number | null;
}

// The pages do not depend on the database (the HTTP tests run on both): one run, on SQLite, keeps the browser test short.
describe('the client portal and the operator console in a real browser', () => {
  let h: Harness;
  let origin: string;
  let browser: Browser;
  /** Every URL any page asked for, and every script error of any page. */
  const urls: string[] = [];
  const problems: string[] = [];
  /** What the browsers logged as errors, but for the answers a page expects to be refused (401 before signing in, 429). */
  const consoleErrors: string[] = [];
  const secrets: string[] = [TEST_ADMIN_TOKEN];
  let client: OnboardedClient;

  beforeAll(async () => {
    // The free tier at 8 a minute: a 429 is a few calls away.
    h = await harness({ dialect: 'sqlite', env: { TIER_LIMITS: '{"free":{"per_minute":8,"per_day":1000}}' } });
    client = await h.client({ name: 'Browser Co', tier: 'pro' });
    secrets.push(client.apiKey, client.clientSecret);
    // A day of usage before today, so that the daily chart has more than one bar.
    h.clock.set(h.clock.now() - 86_400_000);
    for (let i = 0; i < 3; i++) await h.as(client).ok('/v1/references/sports');
    await h.as(client).post('/v1/events/upcoming-events', {});
    h.clock.set(h.clock.now() + 86_400_000);
    await h.as(client).ok('/v1/references/teams');
    await h.ctx.meter.flush();
    ({ origin, browser } = await serveToBrowser(h));
    mkdirSync(SHOTS, { recursive: true });
    mkdirSync(DOCS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  /** A fresh browser profile: no cookie of another. Dialogs (the confirmations) are accepted. */
  async function open(path: '/portal' | '/console', viewport = { width: 1200, height: 900 }): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.on('request', (request) => urls.push(request.url()));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) consoleErrors.push(message.text());
    });
    page.on('dialog', (dialog) => void dialog.accept());
    const res = await page.goto(`${origin}${path}`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    return { context, page };
  }

  const shot = async (page: Page, name: string) => {
    const file = new URL(`${name}.png`, SHOTS);
    await page.screenshot({ path: file.pathname, fullPage: true });
    // Only when asked, as the generated parts of the docs: a test run leaves the repository as it was.
    if (process.env.UPDATE_DOCS === '1') copyFileSync(file, new URL(`${name}.png`, DOCS));
  };

  const chartOf = async (page: Page, id: string): Promise<ChartValues> => {
    await page.waitForSelector(`#${id} canvas`);
    return JSON.parse((await page.getAttribute(`#${id}`, 'data-values')) ?? 'null') as ChartValues;
  };

  // Scripts run in the page are given as text: the test's own TypeScript has no DOM types.

  /** Nothing a page may hold: no credential in its storage, no readable cookie. */
  async function expectNothingStored(page: Page): Promise<void> {
    const stored = await page.evaluate('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie })');
    expect(stored).toBe(JSON.stringify({ local: {}, session: {}, cookie: '' }));
  }

  it('signs in with a key (by keyboard); the chart shows what /v1/account/usage says; a key created works and, deleted, is refused; Try it runs a call', async () => {
    const { context, page } = await open('/portal');
    // Every control has a label.
    expect(await unlabelled(page)).toEqual([]);
    await shot(page, 'portal-sign-in');
    await page.focus('#api-key');
    await page.keyboard.type(client.apiKey);
    const read = page.waitForResponse((response) => response.url().endsWith('/portal/api/usage'));
    await page.keyboard.press('Enter');
    const shown = (await (await read).json()) as Usage;
    const chart = await chartOf(page, 'daily-chart');

    // The chart holds what /v1/account/usage answered the page, day by day and group by group, against the daily limit.
    expect(chart.x).toEqual(shown.days.map((d) => Date.parse(d.date) / 1000));
    for (const [group, values] of Object.entries(chart.series)) expect(values, group).toEqual(shown.days.map((d) => d.by_group[group]));
    expect(chart.limit).toBe(shown.limits.per_day);
    expect(chart.series.references?.at(-2)).toBe(3);
    // And the API, asked directly afterwards, reports the same days; today has the page's own calls since.
    const direct = await h.as(client).ok<Usage>('/v1/account/usage');
    expect(direct.days.slice(0, -1)).toEqual(shown.days.slice(0, -1));
    // The hourly chart and the live line.
    await chartOf(page, 'hourly-chart');
    await expect.poll(() => page.textContent('#now')).toMatch(/This minute: \d+ used, \d+ left\. Today: \d+ used, \d+ left\. Tier pro\./);
    expect(await lowContrast(page)).toEqual([]);
    await shot(page, 'portal-usage');

    await page.click('nav >> text=API keys');
    // One active key, and the account signs in with keys: the page says why it cannot be deleted.
    await expect.poll(() => page.textContent('#key-rule')).toContain('This is your last active API key');
    await page.getByLabel('Name', { exact: true }).fill('made in the browser');
    await page.getByLabel('Expires (optional, UTC midnight)').fill('2099-01-01');
    await page.getByRole('button', { name: 'Create a key' }).click();
    await page.waitForSelector('#created:not([hidden])');
    const key = (await page.textContent('#created-key')) ?? '';
    secrets.push(key);
    expect(key).toMatch(/^sdk_/);
    expect((await h.as({ apiKey: key }).get('/v1/references/sports')).statusCode).toBe(200);
    await expect.poll(() => page.textContent('#key-list')).toContain('made in the browser');
    expect(await page.textContent('#key-list')).toContain('2099');
    expect(await page.isHidden('#key-rule')).toBe(true);
    await shot(page, 'portal-keys');
    await page.getByRole('button', { name: 'Delete made in the browser' }).click();
    await expect.poll(() => page.textContent('#key-list')).not.toContain('made in the browser');
    expectUnauthorized(await h.as({ apiKey: key }).get('/v1/references/sports'), 'invalid_credentials');

    await page.click('nav >> text=Client secrets');
    await page.getByLabel('Secret name').fill('rotation');
    await page.getByRole('button', { name: 'Create a secret' }).click();
    await page.waitForSelector('#created-secret-box:not([hidden])');
    secrets.push((await page.textContent('#created-secret')) ?? '');
    await shot(page, 'portal-secrets');

    await page.click('nav >> text=Try it');
    await page.waitForSelector('#try-operation option', { state: 'attached' });
    await page.selectOption('#try-operation', { label: 'GET /v1/references/sports' });
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.textContent('#try-status')).toBe('GET /v1/references/sports: 200');
    expect(await page.textContent('#try-answer')).toContain('"results"');
    await shot(page, 'portal-try-it');

    await page.click('nav >> text=Audit log');
    await expect.poll(() => page.textContent('#audit-list')).toContain('api_key.deleted');
    await shot(page, 'portal-audit-log');

    // No inline script runs: one added to the page is blocked by the CSP, while the page's own script ran.
    const ran = await page.evaluate(`(() => {
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.inline = "ran"';
      document.body.append(script);
      return document.body.dataset.inline === 'ran';
    })()`);
    expect(ran).toBe(false);
    await expectNothingStored(page);
    await context.close();
  }, 180_000);

  it('signs in with client credentials, and is usable on a phone', async () => {
    const { context, page } = await open('/portal', { width: 390, height: 844 });
    await page.getByLabel('client_id').fill(client.clientId);
    await page.getByLabel('Client secret', { exact: true }).fill(client.clientSecret);
    await page.getByRole('button', { name: 'Sign in with client credentials' }).click();
    await expect.poll(() => page.textContent('#who')).toContain('Signed in as Browser Co');
    await chartOf(page, 'daily-chart');
    // Nothing wider than the phone's screen.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot(page, 'portal-usage-phone');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForSelector('#sign-in:not([hidden])');
    await expectNothingStored(page);
    await context.close();
  }, 120_000);

  it('shows a 429 the client got on the hourly chart, with its minute and window', async () => {
    const limited = await h.client({ name: 'Limited Co', tier: 'free' });
    secrets.push(limited.apiKey, limited.clientSecret);
    const { context, page } = await open('/portal');
    await page.getByLabel('API key', { exact: true }).fill(limited.apiKey);
    await page.getByRole('button', { name: 'Sign in with the API key' }).click();
    await chartOf(page, 'hourly-chart');
    let refused = 0;
    for (let i = 0; i < 20 && refused === 0; i++) if ((await h.as(limited).get('/v1/references/sports')).statusCode === 429) refused += 1;
    expect(refused).toBe(1);
    // A new minute, so that the page's own calls are served again.
    h.clock.set(h.clock.now() + 61_000);
    const read = page.waitForResponse((response) => response.url().includes('/portal/api/usage/hours'));
    await page.getByRole('button', { name: 'Show' }).click();
    const hours = (await (await read).json()) as Hours;
    const chart = await chartOf(page, 'hourly-chart');
    expect(hours.refusals.length).toBeGreaterThan(0);
    expect(hours.refusals.every((r) => r.window === 'minute')).toBe(true);
    const total = hours.refusals.reduce((sum, r) => sum + r.refusals, 0);
    expect(chart.refusals?.reduce((sum, n) => sum + n, 0)).toBe(total);
    expect(chart.refusals?.[new Date(hours.refusals[0]?.minute ?? '').getUTCHours()]).toBeGreaterThan(0);
    expect(await page.textContent('#refusals')).toContain('the minute (rate limit)');
    await shot(page, 'portal-usage-429');
    await context.close();
  }, 120_000);

  it('the console: an operator finds a client and disables it, and the client is refused at its next call; onboard, top clients, health, audit log', async () => {
    const target = await h.client({ name: 'Console Target Ltd', tier: 'pro' });
    secrets.push(target.apiKey, target.clientSecret);
    expect((await h.as(target).get('/v1/references/sports')).statusCode).toBe(200);
    const { context, page } = await open('/console');
    expect(await unlabelled(page)).toEqual([]);
    await shot(page, 'console-sign-in');
    await page.getByLabel('Admin token (ADMIN_TOKEN)').fill(TEST_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.textContent('#client-list')).toContain('Console Target Ltd');
    await shot(page, 'console-clients');

    await page.getByLabel('Search by name').fill('target');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.$$eval('#client-list tbody tr', (rows) => rows.length)).toBe(1);
    await page.getByRole('button', { name: 'Open Console Target Ltd' }).click();
    await chartOf(page, 'client-daily-chart');
    await page.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => page.textContent('#toggle-disabled')).toBe('Enable');
    expect(await lowContrast(page)).toEqual([]);
    expectUnauthorized(await h.as(target).get('/v1/references/sports'), 'client_disabled');
    await expect.poll(() => page.textContent('#client-audit')).toContain('client.updated');
    // A client migrating from Odditt: its flow answers named as Odditt names flow types.
    await page.getByLabel(/Flow types named as/).selectOption('odditt');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await h.admin.get(`/admin/v1/clients/${target.clientId}`)).json<{ flow_vocabulary: string }>().flow_vocabulary).toBe('odditt');
    await expect.poll(() => page.textContent('#client-fields')).toContain('odditt');
    await expect.poll(() => page.textContent('#client-audit')).toContain('flow_vocabulary');
    await shot(page, 'console-client');

    await page.click('nav >> text=Onboard');
    await page.fill('#onboard-name', 'Onboarded In The Console');
    await page.getByRole('button', { name: 'Onboard', exact: true }).click();
    await page.waitForSelector('#onboarded:not([hidden])');
    const credentials = (await page.textContent('#onboarded-credentials')) ?? '';
    const onboardedKey = /sdk_\S+/.exec(credentials)?.[0] ?? '';
    secrets.push(onboardedKey, /sds_\S+/.exec(credentials)?.[0] ?? '');
    expect((await h.as({ apiKey: onboardedKey }).get('/v1/account/config')).statusCode).toBe(200);
    await shot(page, 'console-onboard');

    await page.click('nav >> text=Top clients');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => page.textContent('#top-list')).toContain('Browser Co');
    await shot(page, 'console-top-clients');

    await page.click('nav >> text=Health');
    await expect.poll(() => page.textContent('#health-list')).toContain('ready');
    await shot(page, 'console-health');

    await page.click('nav >> text=Audit log');
    await expect.poll(() => page.textContent('#audit-list')).toContain('client.onboarded');
    await shot(page, 'console-audit-log');
    await expectNothingStored(page);
    await context.close();
  }, 180_000);

  it('no credential in any URL a page asked for, nor in the log; no page had a script error', () => {
    expect(urls.length).toBeGreaterThan(20);
    expectNotLeaked(secrets, urls, h.logs());
    expect(problems).toEqual([]);
    // The CSP refused the one inline script the first test added, and nothing of the pages' own (uPlot's styles included).
    expect(consoleErrors).toHaveLength(1);
    expect(consoleErrors[0]).toMatch(/inline script violates the following Content Security Policy/);
  });
});
