import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness.js';
import type { RoutePolicy } from '../../src/modules/policy/index.js';
import { expectGeneratedSection } from '../helpers/generated-docs.js';
import { type AddedRoute, recordRoutes } from '../helpers/routes.js';

const ARCHITECTURE_MD = new URL('../../docs/architecture.md', import.meta.url);

/** One row per route: where it is declared, and its policy, column by column. */
function routeIndex(routes: readonly AddedRoute[]): string[] {
  const cells = (policy: RoutePolicy | undefined): string[] => {
    if (policy === undefined) return ['—', '—', '—', '—', '—'];
    if (policy.auth === 'client') return ['client', policy.tier, policy.limit, policy.usage, policy.cache];
    if (policy.auth === 'session') return [policy.csrf ? 'session + CSRF' : 'session', '—', '—', '—', policy.cache];
    return [policy.auth === 'admin' ? 'admin' : 'anyone', '—', '—', '—', policy.cache];
  };
  const rows = routes
    // HEAD is answered wherever GET is, by the same route; a plugin's own routes are not ours to index.
    .filter((route) => route.method !== 'HEAD' && route.file !== undefined)
    .map(({ method, url, file, options }) => `| \`${method} ${url}\` | [${file}](../src/${file}) | ${cells(options.config?.policy).join(' | ')} |`);
  return ['| route | file | auth | tier | limit | usage | cache |', '|---|---|---|---|---|---|---|', ...rows];
}

describe('the route index', () => {
  it('docs/architecture.md maps every route to the file that declares it, with its policy', async () => {
    const { built, routes } = await recordRoutes(() => harness({ dialect: 'sqlite' }));
    try {
      expect(routes.filter((route) => route.file === undefined).every((route) => route.url.startsWith('/docs'))).toBe(true);
      expectGeneratedSection(ARCHITECTURE_MD, 'routes', routeIndex(routes));
    } finally {
      await built.close();
    }
  });
});
