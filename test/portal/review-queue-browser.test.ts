import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImportService } from '../../src/modules/import/index.js';
import { createSourcesService } from '../../src/modules/sources/index.js';
import { TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { type Harness, harness } from '../helpers/harness.js';
import { batch, row } from '../sources/batches.js';
import { lowContrast, serveToBrowser, unlabelled } from './in-browser.js';

/** A name as a file may give it: shown as text, it runs nothing and makes no element. */
const XSS = '<img src=x onerror="document.body.dataset.xss=\'ran\'">';
const START = '2025-08-16T14:00:00.000Z';
const SHOTS = new URL('../../test-screenshots/', import.meta.url);

interface ExternalIds {
  data: Array<{ entity_id: number }>;
}

// The page does not depend on the database (the mapping API's tests run on both): one run, on SQLite, as the other browser tests.
describe("the console's review queue in a real browser", () => {
  let h: Harness;
  let origin: string;
  let browser: Browser;
  const problems: string[] = [];

  beforeAll(async () => {
    h = await harness({ dialect: 'sqlite' });
    // football-data makes the league and its teams; The Odds API then names one of them otherwise, and a team no one knows.
    const sources = createSourcesService({ database: h.ctx.database, importer: createImportService(h.ctx) });
    await sources.importBatch(batch('football-data', [row(2, 'Man United', 'Chelsea', START, { home: 2.5, draw: 3.3, away: 2.8 }), row(3, 'Arsenal', 'Brighton', START, { home: 1.5, draw: 4, away: 6 })]));
    const waiting = await sources.importBatch(
      batch('the-odds-api', [
        { ...row(1, 'Manchester United', 'Chelsea', '2025-08-16T15:00:00.000Z', { home: 2.4, draw: 3.4, away: 2.9 }), eventKey: 'mu-che' },
        { ...row(2, XSS, 'Arsenal', '2025-08-23T14:00:00.000Z', { home: 5, draw: 4, away: 1.6 }), eventKey: 'xss-ars' },
      ]),
    );
    expect(waiting.queued).toBe(2);
    ({ origin, browser } = await serveToBrowser(h));
    mkdirSync(SHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  const eventOf = async (source: string, key: string) => (await h.admin.ok<ExternalIds>(`/admin/v1/mapping/external-ids?source=${source}&entity_type=event&external_id=${encodeURIComponent(key)}`)).data.map((d) => d.entity_id);
  const xssRan = (page: Page) => page.evaluate('document.body.dataset.xss ?? null');

  it('lists the waiting names with their candidates (a name as text), binds one to the candidate picked and makes the other: the rows land, the queue empties', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('dialog', (dialog) => void dialog.accept());
    expect((await page.goto(`${origin}/console`))?.status()).toBe(200);
    await page.getByLabel('Admin token (ADMIN_TOKEN)').fill(TEST_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.click('nav >> text=Review queue');
    await expect.poll(() => page.textContent('#review-list')).toContain('Manchester United');

    // The name from the file is shown as its own text: no element made of it, nothing of it run.
    expect(await page.textContent('#review-list')).toContain(XSS);
    expect(await page.$$eval('main img', (images) => images.length)).toBe(0);
    expect(await xssRan(page)).toBeNull();
    expect(await page.textContent('#review-count')).toBe('Names waiting: 2');
    // The best candidate first, with its score; every control labelled, every text readable.
    const best = await page.getByLabel('Record for Manchester United').locator('option').first().textContent();
    expect(best).toMatch(/^Man United \(#\d+\) — 0\.\d\d$/);
    expect(await unlabelled(page)).toEqual([]);
    expect(await lowContrast(page)).toEqual([]);
    // Both actions in sight: the table needs no sideways scrolling.
    expect(await page.$eval('#review-list', (table) => table.scrollWidth <= table.clientWidth)).toBe(true);
    await page.screenshot({ path: new URL('console-review-queue.png', SHOTS).pathname, fullPage: true });

    expect(await eventOf('the-odds-api', 'mu-che')).toEqual([]);
    const [stored] = await eventOf('football-data', 'E0/2025-08-16/Man United/Chelsea');
    const united = (await h.admin.ok<ExternalIds>('/admin/v1/mapping/external-ids?source=football-data&entity_type=team&external_id=Man%20United')).data[0]?.entity_id;
    await page.getByLabel('Record for Manchester United').selectOption(String(united));
    await page.getByRole('button', { name: 'Bind Manchester United' }).click();
    await expect.poll(() => page.textContent('#review-status')).toBe(
      `"Manchester United" now stands for Man United (#${united}). Imported from the rows that waited: 1 event, 3 prices, 0 results; 1 row of the-odds-api still waiting.`,
    );
    // The waiting row landed on the stored event; the name left the queue for the aliases.
    expect(await eventOf('the-odds-api', 'mu-che')).toEqual([stored]);
    await expect.poll(() => page.textContent('#review-count')).toBe('Names waiting: 1');
    expect(await page.textContent('#review-list')).not.toContain('Manchester United');
    expect(await page.textContent('#alias-list')).toContain('Manchester United');

    await page.getByRole('button', { name: `New team of ${XSS}` }).click();
    await expect.poll(() => page.textContent('#review-status')).toMatch(/is a new team \(#\d+\)\. Imported from the rows that waited: 1 event, 3 prices, 0 results; 0 rows of the-odds-api still waiting\.$/);
    await expect.poll(() => page.textContent('#review-count')).toBe('Nothing waits: every name imported is matched.');
    expect((await h.admin.ok<{ data: unknown[] }>('/admin/v1/mapping/unmatched')).data).toEqual([]);
    expect(await eventOf('the-odds-api', 'xss-ars')).toHaveLength(1);
    expect(await xssRan(page)).toBeNull();
    await page.screenshot({ path: new URL('console-review-queue-empty.png', SHOTS).pathname, fullPage: true });
    await context.close();
    expect(problems).toEqual([]);
  }, 180_000);
});
