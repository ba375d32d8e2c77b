import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/chromium.js';
import { SPEC_ENDPOINTS } from './spec-endpoints.js';
import { DEMO_NOW } from '../helpers/demo-clock.js';
import { demoHarness } from '../helpers/demo-database.js';

// The page does not depend on the database: one run, on SQLite, keeps the browser test short.
describe('the /docs page in a real browser', () => {
  let t: Harness;
  let origin: string;
  let browser: Browser;
  let apiKey: string;

  beforeAll(async () => {
    // A missing browser is a broken test machine, not a reason to skip: fail and say how to fix it.
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y --no-install-recommends chromium), as .ci/run does`);
    }
    // The demo dataset as `npm start` makes it, at a pinned moment (a tenth of it: the examples hold
    // at any scale, and openapi-examples.test.ts holds them around midnight).
    t = await demoHarness({ dialect: 'sqlite', now: DEMO_NOW, scale: 0.1 });
    ({ apiKey } = await t.client());
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('the app is not listening on a TCP port');
    origin = `http://127.0.0.1:${address.port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders every endpoint of the contract from assets and a document served by this server alone', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });

    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).toBe(200);
    await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });

    // Every request went to this server (data: URLs never leave the page); the document read is /openapi.json.
    const network = requested.filter((url) => !url.startsWith('data:'));
    expect(network.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(network).toContain(`${origin}/openapi.json`);
    expect(network.some((url) => url.endsWith('/swagger-ui-bundle.js'))).toBe(true);
    expect(problems).toEqual([]);

    const rendered = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => ({
        method: block.querySelector('.opblock-summary-method')?.textContent?.trim().toLowerCase() ?? '',
        path: block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '',
      })),
    );
    for (const [method, path] of SPEC_ENDPOINTS) expect(rendered, `${method.toUpperCase()} ${path}`).toContainEqual({ method, path });
    expect(await page.textContent('.info .title')).toContain('Sports Data B2B API');
    await context.close();
  }, 60_000);

  it('"Try it out" and "Execute" with the defaults answer 200 with results for odds, events and flows', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/docs`);
    await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });

    // Authorize with the API key, as a reader of the page would.
    await page.click('.auth-wrapper .authorize');
    const apiKeyForm = page.locator('.modal-ux .auth-container', { hasText: 'ApiKeyAuth' });
    await apiKeyForm.locator('input').fill(apiKey);
    await apiKeyForm.locator('button.authorize').click();
    await page.click('.modal-ux .btn-done');

    for (const path of ['/v1/odds/upcoming-odds-by-event', '/v1/events/upcoming-events', '/v1/trends/flows', '/v1/trends/mixed-flows']) {
      const block = page.locator('.opblock', { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
      await block.locator('.opblock-summary').first().click();
      await block.locator('button.try-out__btn').click();
      await block.locator('button.execute').click();
      const status = block.locator('.live-responses-table .response .response-col_status');
      await status.first().waitFor({ timeout: 20_000 });
      expect((await status.first().textContent())?.trim(), path).toBe('200');
      const text = await block.locator('.live-responses-table .response-col_description pre').first().textContent();
      const body = JSON.parse(text ?? '') as { results: unknown[]; total_count: number };
      expect(body.results.length, `${path}: ${text?.slice(0, 200) ?? ''}`).toBeGreaterThan(0);
      expect(body.total_count, path).toBeGreaterThan(0);
    }
    await context.close();
  }, 90_000);
});
