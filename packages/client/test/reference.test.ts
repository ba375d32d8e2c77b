import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, run } from './helpers/run.js';

/**
 * The package's API reference is generated from its TSDoc by TypeDoc, with warnings
 * as errors (typedoc.json): every export documented, every link resolved.
 */
describe('the API reference', () => {
  const out = mkdtempSync(join(tmpdir(), 'sdk-reference-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('TypeDoc builds it without a warning', async () => {
    const typedoc = join(ROOT, 'node_modules/typedoc/bin/typedoc');
    const ran = await run(process.execPath, [typedoc, '--out', out], { cwd: join(ROOT, 'packages/client'), timeoutMs: 120_000 });
    expect(`${ran.stdout}${ran.stderr}`).not.toMatch(/\[warning\]|\[error\]/);
    expect(ran.code).toBe(0);
    const client = join(out, 'classes/SportsDataClient.html');
    expect(existsSync(client)).toBe(true);
    expect(readFileSync(client, 'utf8')).toContain('rateLimit');
    expect(existsSync(join(out, 'interfaces/ReferencesApi.html'))).toBe(true);
    expect(readFileSync(join(out, 'interfaces/ReferencesApi.html'), 'utf8')).toContain('/v1/references/teams');
  }, 120_000);
});
