import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * The shape of the code, measured: what test/architecture.test.ts holds to and what
 * `npx tsx scripts/code-shape.ts` prints. Each measure lists the places it counts, so that a count
 * above zero says where to look.
 */

/** Files under `dir` ending in `suffix`, as paths relative to `root` with `/`. */
export function filesUnder(root: string, dir: string, suffix = '.ts'): string[] {
  const found: string[] = [];
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(suffix)) found.push(relative(root, full).split(sep).join('/'));
    }
  };
  walk(join(root, dir));
  return found.sort();
}

/** A type taken from a factory's inferred return (`ReturnType<typeof createX>`) instead of a declared interface. */
export function inferredFactoryTypes(path: string, text: string): string[] {
  return [...text.matchAll(/ReturnType<typeof create\w*(<[^>]*>)?>/g)].map((m) => `${path}: ${m[0]}`);
}

/** Exported factories (`export function createX(…)`) whose return type is inferred instead of declared. */
export function undeclaredFactories(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  return file.statements
    .filter((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && /^create[A-Z]/.test(s.name?.text ?? '') && (s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false))
    .filter((s) => s.type === undefined)
    .map((s) => `${path}: ${s.name?.text ?? ''}`);
}

/** Where SQL may be built: a repository (`*.repository.ts`, a module's `repository/` folder) or the database layer. */
export function mayBuildSql(path: string): boolean {
  return path.endsWith('.repository.ts') || path.includes('/repository/') || path.startsWith('src/platform/db/');
}

/** The query builders and raw SQL a file uses: Kysely's four statements and the `sql` tag. */
export function sqlBuilt(path: string, text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto'].includes(node.name.text)) found.push(node.name.text);
    if (ts.isTaggedTemplateExpression(node) && /^sql(<.*>)?$/s.test(node.tag.getText())) found.push('sql`…`');
    if (ts.isPropertyAccessExpression(node) && node.expression.getText() === 'sql') found.push(`sql.${node.name.text}`);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true));
  return [...new Set(found)].map((what) => `${path}: ${what}`);
}

/** Functions longer than `maxLines` (first to last line, both counted). */
export function longFunctions(path: string, text: string, maxLines: number): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const lineOf = (pos: number) => file.getLineAndCharacterOfPosition(pos).line;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart(file)) + 1;
      if (lines > maxLines) found.push(`${path}:${lineOf(node.getStart(file)) + 1}: ${lines} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Files longer than `maxLines`. */
export function longFile(path: string, text: string, maxLines: number): string[] {
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return lines > maxLines ? [`${path}: ${lines} lines`] : [];
}

/** Files whose functions and length are not held to the limits: the migrations (one long list of steps) and the database's types. */
export const LONG_BY_NATURE = ['src/platform/db/migrations.ts', 'src/platform/db/schema.ts'];

/** A test file that starts the app in its own process, and whether it does so through the one harness. */
export function appStart(text: string): 'harness' | 'other' | 'none' {
  if (/\bharness\(/.test(text)) return 'harness';
  return /\b(buildTestApp|buildApp|createContext)\(/.test(text) ? 'other' : 'none';
}

export interface CodeShape {
  inferredFactoryTypes: string[];
  undeclaredFactories: string[];
  sqlOutsideRepositories: string[];
  longFunctions: string[];
  longFiles: string[];
  appTests: { harness: string[]; other: string[] };
}

/** Every measure over a checkout rooted at `root`. */
export function codeShape(root: string): CodeShape {
  const read = (path: string) => readFileSync(join(root, path), 'utf8');
  const source = filesUnder(root, 'src');
  const shape: CodeShape = { inferredFactoryTypes: [], undeclaredFactories: [], sqlOutsideRepositories: [], longFunctions: [], longFiles: [], appTests: { harness: [], other: [] } };
  for (const path of source) {
    const text = read(path);
    shape.inferredFactoryTypes.push(...inferredFactoryTypes(path, text));
    shape.undeclaredFactories.push(...undeclaredFactories(path, text));
    if (!mayBuildSql(path)) shape.sqlOutsideRepositories.push(...sqlBuilt(path, text));
    if (LONG_BY_NATURE.includes(path)) continue;
    shape.longFunctions.push(...longFunctions(path, text, 80));
    shape.longFiles.push(...longFile(path, text, 400));
  }
  for (const path of filesUnder(root, 'test', '.test.ts')) {
    const kind = appStart(read(path));
    if (kind !== 'none') shape.appTests[kind].push(path);
  }
  return shape;
}

/** What one module offers and where its queries are: a row of docs/architecture.md's module table. */
export interface ModuleRow {
  name: string;
  /** The first sentence of its index.ts's opening comment. */
  summary: string;
  /** The interfaces its public factories (re-exported by index.ts) declare they return. */
  offers: string[];
  /** Its files that build SQL: its repositories. */
  queries: string[];
}

/** The opening comment of a file, on one line. */
function openingComment(text: string): string {
  const match = /^\/\*\*([\s\S]*?)\*\//.exec(text.trimStart());
  return (match?.[1] ?? '').replace(/\n\s*\* ?/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Every module under src/modules: what its index.ts says it is, the interfaces it offers, its repositories. */
export function moduleRows(root: string): ModuleRow[] {
  const modulesDir = join(root, 'src', 'modules');
  return readdirSync(modulesDir)
    .filter((name) => statSync(join(modulesDir, name)).isDirectory())
    .sort()
    .map((name) => {
      const files = filesUnder(root, `src/modules/${name}`);
      const read = (path: string) => readFileSync(join(root, path), 'utf8');
      const index = read(`src/modules/${name}/index.ts`);
      const exported = new Set([...index.matchAll(/\b(create[A-Z]\w*)\b/g)].map((m) => m[1]));
      const offers: string[] = [];
      const queries: string[] = [];
      for (const path of files) {
        const text = read(path);
        if (sqlBuilt(path, text).length > 0) queries.push(path.slice(`src/modules/${name}/`.length));
        const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
        for (const statement of file.statements) {
          if (!ts.isFunctionDeclaration(statement) || !exported.has(statement.name?.text) || statement.type === undefined) continue;
          const type = statement.type.getText(file).replace(/^Promise<(.*)>$/, '$1').replace(/<.*>$/, '');
          if (/^[A-Z]\w*$/.test(type) && !offers.includes(type)) offers.push(type);
        }
      }
      return { name, summary: openingComment(index), offers, queries };
    });
}

/** A piece of background work and the factory that registers it (`background.own(…)`). */
export interface BackgroundOwner {
  /** The file, relative to src/. */
  file: string;
  /** The exported factory whose call registers the work. */
  factory: string;
  /** The job's name (its `name`), when the registration names it there. */
  job: string | undefined;
}

/** Every registration of background work under src/, in file order. */
export function backgroundOwners(root: string): BackgroundOwner[] {
  const owners: BackgroundOwner[] = [];
  for (const path of filesUnder(root, 'src')) {
    const text = readFileSync(join(root, path), 'utf8');
    if (!text.includes('background.own(')) continue;
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    for (const statement of file.statements) {
      if (!ts.isFunctionDeclaration(statement) || statement.name === undefined) continue;
      const factory = statement.name.text;
      const visit = (node: ts.Node): void => {
        if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'own' && node.expression.expression.getText(file).endsWith('background')) {
          owners.push({ file: path.slice('src/'.length), factory, job: jobNameIn(node) });
        }
        ts.forEachChild(node, visit);
      };
      visit(statement);
    }
  }
  return owners;
}

/** The first `name: '…'` given in a registration's argument, if any. */
function jobNameIn(call: ts.CallExpression): string | undefined {
  let found: string | undefined;
  const visit = (node: ts.Node): void => {
    if (found !== undefined) return;
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'name' && ts.isStringLiteral(node.initializer)) found = node.initializer.text;
    ts.forEachChild(node, visit);
  };
  call.arguments.forEach(visit);
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const shape = codeShape(process.cwd());
  const { harness, other } = shape.appTests;
  const lines = [
    `ReturnType<typeof create…> in src/: ${shape.inferredFactoryTypes.length}`,
    `exported create… factories without a declared return type: ${shape.undeclaredFactories.length}`,
    `files outside repositories and platform/db that build SQL: ${new Set(shape.sqlOutsideRepositories.map((s) => s.split(':')[0])).size}`,
    `functions over 80 lines and files over 400 lines in src/ (besides ${LONG_BY_NATURE.join(', ')}): ${shape.longFunctions.length} and ${shape.longFiles.length}`,
    `test files that start the app: ${harness.length + other.length}, through harness(): ${harness.length} (${((100 * harness.length) / Math.max(1, harness.length + other.length)).toFixed(1)}%)`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (process.argv.includes('--list')) {
    for (const [name, list] of Object.entries({ inferred: shape.inferredFactoryTypes, undeclared: shape.undeclaredFactories, sql: shape.sqlOutsideRepositories, 'long functions': shape.longFunctions, 'long files': shape.longFiles, 'other app starts': other })) {
      if (list.length > 0) process.stdout.write(`\n${name}:\n${list.map((l) => `  ${l}`).join('\n')}\n`);
    }
  }
}
