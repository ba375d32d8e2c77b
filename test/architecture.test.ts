import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { appStart, backgroundOwners, codeShape, inferredFactoryTypes, longFile, longFunctions, mayBuildSql, moduleRows, sqlBuilt, undeclaredFactories } from '../scripts/code-shape.js';
import { expectGeneratedSection } from './helpers/generated-docs.js';

/**
 * The direction of imports is the architecture (docs/architecture.md):
 * - platform/ imports only platform/;
 * - shared/ imports platform/ and shared/;
 * - a module imports platform/, shared/, its own files, and another module only through that
 *   module's index.ts — never the composition root or the CLI;
 * - the composition root (src/*.ts) and cli/ import anything, a module only through its index.ts;
 * - modules do not depend on each other in a cycle.
 * Every kind of import counts: `import`, `import type`, `export … from` and `import('…')`.
 *
 * A `declare module 'fastify'` augmentation is a dependency no import shows (`request.principal`
 * is typed wherever Fastify is), so it follows the same direction:
 * - what a file decorates (`app.decorate('x')`, `decorateRequest`, `decorateReply`) is declared by
 *   an augmentation of the same owner (one module, or platform/), next to the code that provides it;
 * - a member a module declares is read only where that module is a dependency: never in platform/
 *   or shared/, and in another module only when that module imports the declaring one.
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

/** The owner of a file for augmentations: a module, or a layer. */
function ownerOf(place: Place): string {
  return place.layer === 'module' ? `modules/${place.module}` : nameOf(place);
}

interface Augmentations {
  /** Interface members declared in `declare module '…'` blocks. */
  declared: string[];
  /** Names given to decorate, decorateRequest and decorateReply. */
  decorated: string[];
  /** Property names read (`a.name`, `const { name } = a`). */
  read: Set<string>;
}

function augmentationsOf(text: string): Augmentations {
  const found: Augmentations = { declared: [], decorated: [], read: new Set() };
  const nameText = (name: ts.Node | undefined) => (name !== undefined && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined);
  const visit = (node: ts.Node): void => {
    if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name) && node.body !== undefined && ts.isModuleBlock(node.body)) {
      for (const statement of node.body.statements) {
        if (!ts.isInterfaceDeclaration(statement)) continue;
        for (const member of statement.members) {
          const name = nameText(member.name);
          if (name !== undefined) found.declared.push(name);
        }
      }
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && /^decorate(Request|Reply)?$/.test(node.expression.name.text)) {
      const name = nameText(node.arguments[0]);
      if (name !== undefined) found.decorated.push(name);
    }
    if (ts.isPropertyAccessExpression(node)) found.read.add(node.name.text);
    if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const name = nameText(node.propertyName ?? node.name);
      if (name !== undefined) found.read.add(name);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true));
  return found;
}

/** Every broken rule of augmentations: what is decorated and who reads what a module declares. */
function augmentationViolations(files: ReadonlyMap<string, string>, dependsOn: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const found: string[] = [];
  const parsed = new Map([...files].map(([path, text]) => [path, augmentationsOf(text)]));
  /** Member name → the owners that declare it. */
  const declarers = new Map<string, Set<string>>();
  for (const [path, { declared }] of parsed) for (const name of declared) declarers.set(name, (declarers.get(name) ?? new Set()).add(ownerOf(placeOf(path))));
  for (const [path, { decorated, read }] of parsed) {
    const place = placeOf(path);
    const owner = ownerOf(place);
    for (const name of decorated) {
      const owners = [...(declarers.get(name) ?? [])];
      if (!owners.includes(owner)) found.push(`${path} decorates \`${name}\`, which ${owners.length > 0 ? owners.join(', ') : 'no augmentation'} declares: declare it beside the code that provides it`);
    }
    for (const name of read) {
      for (const declarer of declarers.get(name) ?? []) {
        if (!declarer.startsWith('modules/') || declarer === owner) continue;
        const module = declarer.slice('modules/'.length);
        if (place.layer === 'platform' || place.layer === 'shared') found.push(`${path} reads \`${name}\`, which ${declarer} declares: ${nameOf(place)} knows no feature`);
        else if (place.layer === 'module' && !dependsOn.get(place.module)?.has(module)) found.push(`${path} reads \`${name}\`, which ${declarer} declares, without importing ${declarer}`);
      }
    }
  }
  return found;
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
  return [...found, ...augmentationViolations(files, dependsOn)];
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

  it('catches each kind of misplaced augmentation (the check itself)', () => {
    const bad = new Map([
      ['platform/http/types.ts', "declare module 'fastify' { interface FastifyInstance { authenticate: () => void } }"],
      ['modules/auth/auth.plugin.ts', "app.decorate('authenticate', hook);\ndeclare module 'fastify' { interface FastifyRequest { principal: string | null } }"],
      ['platform/http/headers.ts', 'const data = request.principal !== null;'],
      ['modules/usage/usage.routes.ts', 'const { principal } = request;'],
    ]);
    const found = violations(bad);
    expect(found).toEqual([
      'modules/auth/auth.plugin.ts decorates `authenticate`, which platform/ declares: declare it beside the code that provides it',
      'platform/http/headers.ts reads `principal`, which modules/auth declares: platform/ knows no feature',
      'modules/usage/usage.routes.ts reads `principal`, which modules/auth declares, without importing modules/auth',
    ]);
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
      ['modules/auth/auth.plugin.ts', "app.decorateRequest('principal', null);\ndeclare module 'fastify' { interface FastifyRequest { principal: string | null } }"],
      ['modules/stream/stream.routes.ts', "import { x } from '../auth/index.js';\nconst { principal } = request;"],
      ['shared/wire.ts', "import { Type } from 'typebox';\nimport { x } from '../platform/pagination.js';"],
      ['modules/trends/trends.schemas.ts', "import { TeamRef } from '../../shared/wire.js';\nimport type { KeyResolver } from '../references/index.js';\nimport { x } from './flow-items.js';"],
      ['context.ts', "import { createClientsService } from './modules/clients/index.js';\nimport { x } from './platform/background.js';"],
    ]);
    expect(violations(good)).toEqual([]);
  });
});

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('each module says what it offers in one place, and its SQL has one address', () => {
  const shape = codeShape(ROOT);

  it('every factory declares what it returns: no exported create… without a return type, no ReturnType<typeof create…>', () => {
    expect(shape.undeclaredFactories).toEqual([]);
    expect(shape.inferredFactoryTypes).toEqual([]);
  });

  it('queries are built only in repositories and in platform/db', () => {
    expect(shape.sqlOutsideRepositories).toEqual([]);
  });

  it('no function over 80 lines and no file over 400 lines in src/ (the migrations and the database types aside)', () => {
    expect(shape.longFunctions).toEqual([]);
    expect(shape.longFiles).toEqual([]);
  });

  it('at least 95% of the test files that start the app do so through the one harness (decision 0284)', () => {
    const { harness, other } = shape.appTests;
    expect(harness.length + other.length).toBeGreaterThan(50);
    expect(harness.length / (harness.length + other.length), `started otherwise: ${other.join(', ')}`).toBeGreaterThanOrEqual(0.95);
  });

  it('catches each kind of query, factory and length it looks for (the checks themselves)', () => {
    const queries = "db.selectFrom('a');\ntrx.insertInto('b');\ndb.updateTable('c');\ndb.deleteFrom('d');\nconst q = sql`select 1`;\nsql.join([]);\nsql<number>`x`;";
    expect(sqlBuilt('src/modules/x/x.service.ts', queries).map((found) => found.split(': ')[1])).toEqual(['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'sql`…`', 'sql.join']);
    expect(sqlBuilt('src/modules/x/x.service.ts', "const selectFrom = 1; const sqlish = 'selectFrom';")).toEqual([]);
    expect(['src/modules/x/x.repository.ts', 'src/modules/x/repository/rows.ts', 'src/platform/db/change-feed.ts'].map(mayBuildSql)).toEqual([true, true, true]);
    expect(['src/modules/x/x.service.ts', 'src/platform/cache/x.ts'].map(mayBuildSql)).toEqual([false, false]);
    expect(undeclaredFactories('x.ts', 'export function createA(deps: D) { return {}; }\nexport function createB(): B { return b; }\nfunction createC() {}')).toEqual(['x.ts: createA']);
    expect(inferredFactoryTypes('x.ts', 'type A = ReturnType<typeof createA>;\ntype B<T> = ReturnType<typeof createB<T>>;')).toHaveLength(2);
    const body = (n: number) => Array.from({ length: n }, () => '  x();').join('\n');
    expect(longFunctions('x.ts', `function a() {\n${body(78)}\n}\nfunction b() {\n${body(79)}\n}`, 80)).toEqual(['x.ts:81: 81 lines']);
    expect(longFile('x.ts', `${body(401)}\n`, 400)).toEqual(['x.ts: 401 lines']);
    expect(appStart("const h = await harness({ dialect });")).toBe('harness');
    expect(appStart("const app = await buildTestApp({ dialect });")).toBe('other');
  });
});

describe('docs/architecture.md says what the code has', () => {
  const doc = new URL('../docs/architecture.md', import.meta.url);
  const code = (names: readonly string[]) => (names.length === 0 ? '—' : names.map((name) => `\`${name}\``).join(', '));

  it('each module: what it is, the interfaces it offers, the files that hold its queries', () => {
    const rows = moduleRows(ROOT);
    expect(rows.length).toBeGreaterThan(20);
    expectGeneratedSection(doc, 'modules', [
      '| module | what it is | what it offers | its queries |',
      '|---|---|---|---|',
      ...rows.map((row) => `| \`${row.name}\` | ${row.summary} | ${code(row.offers)} | ${code(row.queries)} |`),
    ]);
  });

  it('each piece of background work, and the factory that registers it', () => {
    const owners = backgroundOwners(ROOT);
    expect(owners.length).toBeGreaterThan(5);
    expectGeneratedSection(doc, 'background', [
      '| job | registered by | in |',
      '|---|---|---|',
      ...owners.map((owner) => `| ${owner.job ?? '—'} | \`${owner.factory}\` | \`${owner.file}\` |`),
    ]);
  });
});
