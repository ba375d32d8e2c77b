import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/chromium.js';
import { expect } from 'vitest';
import type { Harness } from '../helpers/harness.js';

// What the browser tests share: the app served to a real Chromium, and checks of a page open in it.
// Scripts run in the page are given as text: the tests' own TypeScript has no DOM types.

/** The test app listening on a free port, and a headless Chromium to open its pages. */
export async function serveToBrowser(h: Harness): Promise<{ origin: string; browser: Browser }> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package`);
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  const address = h.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the app is not listening on a TCP port');
  return { origin: `http://127.0.0.1:${address.port}`, browser: await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }) };
}

/**
 * The text of every visible button, link, label, paragraph and table cell whose contrast with its
 * background (the nearest one that is not transparent) is below WCAG's 4.5:1, with its ratio.
 */
export const lowContrast = (page: Page) =>
  page.evaluate(`(() => {
    const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
    const luminance = ([r, g, b]) => [r, g, b].map((v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; })
      .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
    const background = (element) => {
      for (let e = element; e; e = e.parentElement) {
        const colour = rgb(getComputedStyle(e).backgroundColor);
        if (colour.length === 3 || colour[3] > 0) return colour.slice(0, 3);
      }
      return [255, 255, 255];
    };
    return [...document.querySelectorAll('button:not(:disabled), a, label, p, td, th, h1, h2, caption, summary')]
      .filter((e) => e.offsetParent !== null && e.textContent.trim() !== '')
      .map((e) => {
        const [a, b] = [luminance(rgb(getComputedStyle(e).color).slice(0, 3)), luminance(background(e))];
        return { text: e.textContent.trim().slice(0, 30), ratio: Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 10) / 10 };
      })
      .filter((r) => r.ratio < 4.5);
  })()`);

/** The ids of the controls that have no label. */
export const unlabelled = (page: Page) =>
  page.evaluate("[...document.querySelectorAll('input, select, textarea')].filter((c) => c.labels.length === 0 && !c.getAttribute('aria-label')).map((c) => c.id)");

/** No part of any secret (20 characters past its prefix) in a URL a page asked for, nor in the service's log. */
export function expectNotLeaked(secrets: readonly string[], urls: readonly string[], logs: string): void {
  for (const secret of secrets.filter((s) => s.length > 0)) {
    const part = secret.slice(secret.indexOf('_') + 1).slice(0, 20);
    expect(urls.filter((url) => url.includes(part))).toEqual([]);
    expect(logs).not.toContain(part);
  }
}
