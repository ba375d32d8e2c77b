import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/process.js';
import { readDoc, section } from './markdown.js';

describe('the list endpoint the architecture shows', () => {
  it('is docs/examples/list-endpoint.ts, which the typecheck compiles', () => {
    const shown = /```ts\n([\s\S]*?)```/.exec(section(readDoc('docs/architecture.md'), 'Adding a list endpoint'))?.[1];
    expect(shown).toBe(readFileSync(join(ROOT, 'docs/examples/list-endpoint.ts'), 'utf8'));
    const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { include: string[] };
    expect(tsconfig.include).toContain('docs/examples');
  });
});
