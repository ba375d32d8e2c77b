import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OnboardedClient } from '../helpers/clients.js';
import { type Harness, harness } from '../helpers/harness.js';
import { insertEndpoint, type Receiver, startReceiver, statusesThen200, WEBHOOK_ENV } from '../helpers/webhooks.js';
import { historyDataset } from '../history/fixture.js';
import { expectNotLeaked, lowContrast, serveToBrowser, unlabelled } from './in-browser.js';

const SHOTS = new URL('../../test-screenshots/', import.meta.url);

interface Usage {
  days: Array<{ date: string; webhook_deliveries: number }>;
}

// The page does not depend on the database (the proxy's HTTP tests run on both): one run, on SQLite, as the other browser tests.
describe("the portal's webhooks section in a real browser", () => {
  let h: Harness;
  let origin: string;
  let browser: Browser;
  let receiver: Receiver;
  let client: OnboardedClient;
  const urls: string[] = [];
  const problems: string[] = [];
  const secrets: string[] = [];

  beforeAll(async () => {
    h = await harness({ dialect: 'sqlite', env: WEBHOOK_ENV });
    receiver = await startReceiver();
    client = await h.client({ name: 'Hooked Co', tier: 'pro' });
    secrets.push(client.apiKey, client.clientSecret);
    ({ origin, browser } = await serveToBrowser(h));
    mkdirSync(SHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await h?.close();
  });

  async function signedIn(apiKey: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    page.on('request', (request) => urls.push(request.url()));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('dialog', (dialog) => void dialog.accept());
    expect((await page.goto(`${origin}/portal`))?.status()).toBe(200);
    await page.getByLabel('API key', { exact: true }).fill(apiKey);
    await page.getByRole('button', { name: 'Sign in with the API key' }).click();
    await page.waitForSelector('#nav:not([hidden])');
    await page.click('nav >> text=Webhooks');
    return { context, page };
  }

  const rowOf = (page: Page, table: string, text: string | RegExp): Locator => page.locator(`#${table} tbody tr`).filter({ hasText: text });
  const shot = (page: Page, name: string) => page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname, fullPage: true });

  it('creates an endpoint (its secret shown once), sends a test, shows deliveries with their attempts after an import, retries and replays, disables with the reason, counts deliveries in the usage', async () => {
    const { context, page } = await signedIn(client.apiKey);
    const url = `${receiver.url}/browser`;

    // Create: the event types are the API's, as checkboxes; a filter in percent becomes the fraction.
    await page.waitForSelector('#webhook-types input[type=checkbox]');
    expect(await unlabelled(page)).toEqual([]);
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByLabel(/^odds\.changed:/).check();
    await page.getByLabel(/^event\.updated:/).check();
    await page.click('text=Filters (optional');
    await page.getByLabel(/Smallest edge/).fill('2');
    await page.getByLabel('Description (optional)').fill('the browser receiver');
    await page.getByRole('button', { name: 'Create the endpoint' }).click();
    await page.waitForSelector('#webhook-secret-box:not([hidden])');
    const secret = (await page.textContent('#webhook-secret')) ?? '';
    secrets.push(secret);
    expect(secret).toMatch(/^whsec_/);
    expect(await page.textContent('#webhook-secret-note')).toContain('shown this once');
    await expect.poll(() => page.textContent('#webhook-list')).toContain('the browser receiver');
    const [stored] = (await h.as(client).page<{ id: string; event_types: string[]; filters: object }>('/v1/webhooks')).results;
    expect(stored).toMatchObject({ event_types: ['odds.changed', 'event.updated'], filters: { min_edge: 0.02 } });
    expect(await rowOf(page, 'webhook-list', 'the browser receiver').textContent()).toContain('Enabled');
    expect(await lowContrast(page)).toEqual([]);
    await shot(page, 'portal-webhooks-created');

    // Once: a page loaded again within the session shows the endpoint, never its secret.
    await page.reload();
    await expect.poll(() => page.textContent('#webhook-list')).toContain('the browser receiver');
    expect(await page.isHidden('#webhook-secret-box')).toBe(true);
    expect(await page.evaluate('document.body.innerText')).not.toContain(secret.slice(6, 30));

    // A test message: the status, the latency and the answer's first bytes; the shown secret is the one that signs.
    await rowOf(page, 'webhook-list', 'the browser receiver').getByRole('button', { name: 'Send a test' }).click();
    await expect.poll(() => page.textContent('#webhook-test-status')).toMatch(/Test message to .*: 200, received, after \d+ ms\./);
    expect(await page.textContent('#webhook-test-answer')).toBe('answered 200');
    const [test] = receiver.at('browser');
    expect(new Webhook(secret).verify(test?.body ?? '', (test?.headers ?? {}) as Record<string, string>)).toMatchObject({ type: 'webhook.test' });

    // An import: its odds changes become deliveries; the first attempt is refused (500) and waits for its retry.
    receiver.answer = statusesThen200(500);
    await h.import(historyDataset(h.clock.now()));
    await h.ctx.webhookFormer.run();
    await h.ctx.webhooks.run();
    await rowOf(page, 'webhook-list', 'the browser receiver').getByRole('button', { name: 'Deliveries' }).click();
    const first = () => rowOf(page, 'delivery-list', /^1odds\.changed/);
    await expect.poll(() => first().textContent()).toContain('waiting to be sent');
    const attempts = (await first().locator('ol.attempts li').allTextContents()).join(' | ');
    expect(attempts).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: 500 in \d+ ms.*answered 500$/);
    expect(await first().locator('td').nth(4).textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(await page.textContent('#delivery-list')).toContain('webhook.test');
    await shot(page, 'portal-webhook-deliveries');

    // Retry now: sent at once, delivered, both attempts kept.
    await first().getByRole('button', { name: 'Retry now' }).click();
    await expect.poll(() => page.textContent('#deliveries-status')).toMatch(/^Sequence 1 sent again: 200 after \d+ ms\.$/);
    await expect.poll(() => first().textContent()).toContain('delivered');
    expect(await first().locator('ol.attempts li').count()).toBe(2);

    // The rest go out; a replay from sequence 1 sends them again, in order, to a receiver that now answers 410.
    await h.ctx.webhooks.run();
    const delivered = await h.as(client).page<{ sequence: number | null; state: string }>(`/v1/webhooks/${stored?.id}/deliveries`);
    const sequences = delivered.results.filter((d) => d.sequence !== null).map((d) => d.sequence ?? 0);
    expect(delivered.results.every((d) => d.state !== 'pending')).toBe(true);
    receiver.answer = () => 410;
    await page.getByLabel('Send delivered messages again, from sequence').fill('1');
    await page.getByRole('button', { name: 'Replay' }).click();
    const replayed = sequences.length === 1 ? '1 delivered message (sequence 1) will be sent again' : `${sequences.length} delivered messages (sequence 1 to ${Math.max(...sequences)})`;
    await expect.poll(() => page.textContent('#deliveries-status')).toContain(replayed);

    // Its 410 disables the endpoint: the page says why, and since when.
    await h.ctx.webhooks.run();
    await page.reload();
    await expect.poll(() => rowOf(page, 'webhook-list', 'the browser receiver').textContent()).toMatch(/Disabled since \d{4}-\d\d-\d\d \d\d:\d\d UTC: it answered 410 Gone/);
    receiver.answer = () => 200;
    await rowOf(page, 'webhook-list', 'the browser receiver').getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => rowOf(page, 'webhook-list', 'the browser receiver').textContent()).toContain('Enabled');
    await rowOf(page, 'webhook-list', 'the browser receiver').getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => rowOf(page, 'webhook-list', 'the browser receiver').textContent()).toMatch(/Disabled by you since .* UTC/);
    expect((await h.as(client).get(`/v1/webhooks/${stored?.id}`)).json()).toMatchObject({ enabled: false, disabled_reason: 'client' });
    // One that failed every retry, said as such.
    const exhausted = await insertEndpoint(h, client.clientId, `${receiver.url}/exhausted`);
    await h.database.db.updateTable('webhook_endpoints').set({ enabled: 0, disabled_reason: 'retries_exhausted', disabled_at: h.clock.now() }).where('id', '=', exhausted.id).execute();
    await page.reload();
    await expect.poll(() => rowOf(page, 'webhook-list', 'exhausted').textContent()).toContain('a message failed every retry');
    await shot(page, 'portal-webhooks');

    // Rotate: the new secret once, and the old one's 24 hours said.
    await rowOf(page, 'webhook-list', 'the browser receiver').getByRole('button', { name: 'Rotate the secret' }).click();
    await page.waitForSelector('#webhook-secret-box:not([hidden])');
    const rotated = (await page.textContent('#webhook-secret')) ?? '';
    secrets.push(rotated);
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect(await page.textContent('#webhook-secret-note')).toMatch(/The old one keeps signing beside it until .* UTC \(24 hours\)/);

    // The usage: deliveries per day, beside the requests, as the API counts them.
    await page.click('nav >> text=Usage');
    const usage = await h.as(client).ok<Usage>('/v1/account/usage');
    const today = usage.days.at(-1)?.webhook_deliveries ?? 0;
    expect(today).toBeGreaterThan(0);
    await expect.poll(() => page.textContent('#webhook-day')).toContain(`acknowledged today: ${today},`);
    expect(await page.locator('#days thead').textContent()).toContain('Webhook deliveries');

    // Delete.
    await page.click('nav >> text=Webhooks');
    await rowOf(page, 'webhook-list', 'the browser receiver').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.textContent('#webhook-list')).not.toContain('the browser receiver');
    expect((await h.as(client).get(`/v1/webhooks/${stored?.id}`)).statusCode).toBe(404);
    await context.close();
  }, 180_000);

  it('sets the kinds of events from the form: competitions ticked make event_kinds with competition, and the list says which kinds each endpoint is told of', async () => {
    const { context, page } = await signedIn(client.apiKey);
    await page.waitForSelector('#webhook-types input[type=checkbox]');
    const create = async (description: string, kinds: { matchups: boolean; competitions: boolean }) => {
      await page.getByLabel('Endpoint URL').fill(`${receiver.url}/kinds`);
      await page.getByLabel(/^result\.graded:/).check();
      if (!(await page.isVisible('#webhook-kinds'))) await page.click('text=Filters (optional');
      // What a new form offers: matchups, as an endpoint without event_kinds is told.
      expect(await page.getByLabel(/^Matchups:/).isChecked()).toBe(true);
      expect(await page.getByLabel(/^Competitions:/).isChecked()).toBe(false);
      await page.getByLabel(/^Matchups:/).setChecked(kinds.matchups);
      await page.getByLabel(/^Competitions:/).setChecked(kinds.competitions);
      await page.getByLabel('Description (optional)').fill(description);
      await page.getByRole('button', { name: 'Create the endpoint' }).click();
    };
    const made = async (description: string) => {
      await expect.poll(() => page.textContent('#webhook-list')).toContain(description);
      secrets.push((await page.textContent('#webhook-secret')) ?? '');
      const endpoints = (await h.as(client).page<{ description: string; filters: Record<string, unknown> }>('/v1/webhooks')).results;
      return endpoints.find((e) => e.description === description)?.filters;
    };
    expect(await unlabelled(page)).toEqual([]);

    await create('both kinds', { matchups: true, competitions: true });
    expect(await made('both kinds')).toEqual({ event_kinds: ['matchup', 'competition'] });
    expect(await rowOf(page, 'webhook-list', 'both kinds').textContent()).toContain('Of matchups and competitions');

    await page.getByLabel('League ids').fill('30');
    await create('competitions alone', { matchups: false, competitions: true });
    expect(await made('competitions alone')).toEqual({ event_kinds: ['competition'], league_ids: [30] });
    expect(await rowOf(page, 'webhook-list', 'competitions alone').textContent()).toContain('Of competitions; leagues 30');

    // Matchups alone is the API's default: the endpoint is stored as one made before competitions existed.
    await create('matchups alone', { matchups: true, competitions: false });
    expect(await made('matchups alone')).toEqual({});
    expect(await rowOf(page, 'webhook-list', 'matchups alone').textContent()).toContain('Of matchups');
    expect(await rowOf(page, 'webhook-list', 'matchups alone').textContent()).not.toContain('competitions');
    expect(await lowContrast(page)).toEqual([]);
    await shot(page, 'portal-webhooks-kinds');

    // Neither: refused on the page, nothing made.
    const before = (await h.as(client).page('/v1/webhooks')).total_count;
    await create('no kind', { matchups: false, competitions: false });
    await expect.poll(() => page.textContent('#webhooks-error')).toBe('Choose at least one kind of event: matchups, competitions or both.');
    expect((await h.as(client).page('/v1/webhooks')).total_count).toBe(before);
    await context.close();
  }, 120_000);

  it('tells a free client that webhooks are for pro and up, and shows no form', async () => {
    const free = await h.client({ name: 'Free Co', tier: 'free' });
    secrets.push(free.apiKey, free.clientSecret);
    const { context, page } = await signedIn(free.apiKey);
    await expect.poll(() => page.textContent('#webhooks-tier')).toBe('Webhooks are for the pro tier and up; this account is on the free tier.');
    expect(await page.isVisible('#webhooks-tier')).toBe(true);
    expect(await page.isHidden('#webhooks-body')).toBe(true);
    await shot(page, 'portal-webhooks-free');
    await context.close();
  }, 120_000);

  it('no secret in any URL a page asked for, nor in the log; no page had a script error', () => {
    expect(urls.length).toBeGreaterThan(10);
    expectNotLeaked(secrets, urls, h.logs());
    expect(problems).toEqual([]);
  });
});
