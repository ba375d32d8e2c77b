import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The direction of imports is the architecture (docs/architecture.md):
 * - platform/ imports only platform/;
 * - shared/ imports platform/ and shared/;
 * - a module imports platform/, shared/, its own files, and another module only through that
 *   module's index.ts — never the composition root or the CLI;
 * - the composition root (src/*.ts) and cli/ import anything, a module only through its index.ts;
 * - modules do not depend on each other in a cycle.
 * Every kind of import counts: `import`, `import type`, `export … from` and `import('…')`.
 */

const SRC = fileURLToPath(new URL('../src', import.meta.url));

type Place = { layer: 'platform' | 'shared' | 'root' | 'cli' | 'outside' } | { layer: 'module'; module: string; isIndex: boolean };

/** Where a path (relative to src/, with `/`) sits in the layers. */
function placeOf(path: string): Place {
  const [top, second, ...rest] = path.split('/');
  if (path.startsWith('../')) return { layer: 'outside' };
  if (top === 'platform' || top === 'shared' || top === 'cli') return { layer: top };
  if (top === 'modules' && second !== undefined) return { layer: 'module', module: second, isIndex: rest.join('/') === 'index.ts' };
  return { layer: 'root' };
}

function nameOf(place: Place): string {
  if (place.layer === 'module') return 'modules/';
  return { platform: 'platform/', shared: 'shared/', cli: 'the CLI', root: 'the composition root', outside: 'a file outside src/' }[place.layer];
}

/** The relative import specifiers of a source text, of every kind. */
function importsOf(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => name.startsWith('.'));
}

/** What is wrong with one import (`from` and `to` relative to src/), or undefined. */
function problemOf(from: string, to: string): string | undefined {
  const source = placeOf(from);
  const target = placeOf(to);
  if (target.layer === 'outside') return 'imports a file outside src/';
  switch (source.layer) {
    case 'platform':
      return target.layer === 'platform' ? undefined : `platform/ imports ${nameOf(target)}`;
    case 'shared':
      return target.layer === 'platform' || target.layer === 'shared' ? undefined : `shared/ may import only platform/ and shared/`;
    case 'module':
      if (target.layer === 'platform' || target.layer === 'shared') return undefined;
      if (target.layer !== 'module') return `a module imports ${nameOf(target)}`;
      if (target.module === source.module || target.isIndex) return undefined;
      return `modules/${source.module} imports an internal file of modules/${target.module} (only its index.ts is public)`;
    default:
      return target.layer === 'module' && !target.isIndex ? `imports an internal file of modules/${target.module} (only its index.ts is public)` : undefined;
  }
}

/** Every broken rule in a set of files (path relative to src/ → text). */
function violations(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  const dependsOn = new Map<string, Set<string>>();
  for (const [path, text] of files) {
    for (const specifier of importsOf(text)) {
      const target = relative(SRC, resolve(join(SRC, dirname(path)), specifier)).split(sep).join('/').replace(/\.js$/, '.ts');
      const problem = problemOf(path, target);
      if (problem) found.push(`${path} → ${specifier}: ${problem}`);
      const [from, to] = [placeOf(path), placeOf(target)];
      if (from.layer === 'module' && to.layer === 'module' && from.module !== to.module) {
        dependsOn.set(from.module, (dependsOn.get(from.module) ?? new Set()).add(to.module));
      }
    }
  }
  const cycle = cycleIn(dependsOn);
  if (cycle) found.push(`modules depend on each other in a cycle: ${cycle.join(' → ')}`);
  return found;
}

function cycleIn(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] | undefined {
  const done = new Set<string>();
  const visit = (node: string, path: string[]): string[] | undefined => {
    if (path.includes(node)) return [...path.slice(path.indexOf(node)), node];
    if (done.has(node)) return undefined;
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next, [...path, node]);
      if (cycle) return cycle;
    }
    done.add(node);
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node, []);
    if (cycle) return cycle;
  }
  return undefined;
}

function sourceFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [file, text] of sourceFiles(path)) files.set(file, text);
    else if (name.endsWith('.ts')) files.set(relative(SRC, path).split(sep).join('/'), readFileSync(path, 'utf8'));
  }
  return files;
}

describe('the architecture: which folder may import which', () => {
  it('holds for every file under src/', () => {
    const files = sourceFiles(SRC);
    expect(files.size).toBeGreaterThan(50);
    expect(violations(files)).toEqual([]);
  });

  it('every module has a public entry, index.ts', () => {
    const modules = readdirSync(join(SRC, 'modules'));
    expect(modules.filter((module) => !statSync(join(SRC, 'modules', module, 'index.ts'), { throwIfNoEntry: false })?.isFile())).toEqual([]);
  });

  it('catches each kind of wrong import (the check itself)', () => {
    const bad = new Map([
      ['platform/http/types.ts', "import type { AppContext } from '../../context.js';"],
      ['platform/cache/x.ts', "export { something } from '../../modules/clients/index.js';"],
      ['platform/lists/y.ts', "const m = await import('../../shared/wire.js');"],
      ['shared/wire.ts', "import { x } from '../modules/events/index.js';"],
      ['modules/trends/trends.schemas.ts', "import { TeamRef } from '../events/events.schemas.js';"],
      ['modules/odds/odds.service.ts', "import type { AppContext } from '../../context.js';"],
      ['cli/commands/clients.ts', "import type { ClientAccount } from '../../modules/clients/clients.repository.js';"],
      ['app.ts', "import { tokensRoutes } from './modules/tokens/tokens.routes.js';"],
      ['modules/a/index.ts', "export * from '../b/index.js';"],
      ['modules/b/index.ts', "export * from '../a/index.js';"],
    ]);
    const found = violations(bad);
    expect(found).toHaveLength(bad.size - 1);
    for (const path of [...bad.keys()].slice(0, 8)) expect(found.some((v) => v.startsWith(`${path} →`)), path).toBe(true);
    expect(found.at(-1)).toMatch(/cycle: (a → b → a|b → a → b)/);

    const good = new Map([
      ['platform/lists/paged-lists.ts', "import type { ReadCache } from '../cache/read-cache.js';"],
      ['shared/wire.ts', "import { Type } from 'typebox';\nimport { x } from '../platform/pagination.js';"],
      ['modules/trends/trends.schemas.ts', "import { TeamRef } from '../../shared/wire.js';\nimport type { KeyResolver } from '../references/index.js';\nimport { x } from './flow-items.js';"],
      ['context.ts', "import { createClientsService } from './modules/clients/index.js';\nimport { x } from './platform/background.js';"],
    ]);
    expect(violations(good)).toEqual([]);
  });
});
