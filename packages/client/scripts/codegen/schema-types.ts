/**
 * JSON Schema (the subset the server's OpenAPI 3.1 document uses) to TypeScript. A schema with a
 * `title`, or one of `#/components/schemas`, becomes a named declaration; others are written in
 * place. Descriptions become TSDoc, so the API reference and editors show the document's words.
 */
export type Json = Record<string, unknown>;

export function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function json(value: unknown): Json {
  return isJson(value) ? value : {};
}

/** Text from the document made safe inside a TSDoc comment: no comment end, no tags. */
const escapeDoc = (text: string): string => text.replace(/\*\//g, '*\\/').replace(/@/g, '\\@');

/**
 * A TSDoc comment: the document's texts (escaped), then tags written by the generator. One line
 * when it fits, a block otherwise.
 */
export function docComment(texts: ReadonlyArray<unknown>, indent: string, tags: ReadonlyArray<string> = []): string {
  const paragraphs = texts.filter((t): t is string => typeof t === 'string' && t !== '').map(escapeDoc);
  const text = [...paragraphs, ...tags].join('\n\n');
  if (text === '') return '';
  const body = text.split('\n');
  if (body.length === 1 && indent.length + text.length < 110) return `${indent}/** ${text} */\n`;
  return `${indent}/**\n${body.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`)).join('\n')}\n${indent} */\n`;
}

/** The TSDoc of a property or parameter: its description, and its default as a tag. */
export function propertyDoc(schema: Json, indent: string, description: unknown = schema.description): string {
  const tags = schema.default === undefined ? [] : [`@defaultValue \`${JSON.stringify(schema.default)}\``];
  return docComment([description], indent, tags);
}

/** A literal type, strings quoted as the repository writes them. */
const literal = (value: unknown): string => (typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value));

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export const propertyKey = (name: string): string => (IDENTIFIER.test(name) ? name : literal(name));

/** Where a schema is first used: what a named type without a description of its own is said to be. */
export type Where = { answerOf: string } | { owner: string; property: string; item?: boolean } | { text: string };

function whereText(where: Where | undefined): string | undefined {
  if (where === undefined) return undefined;
  if ('text' in where) return where.text;
  if ('answerOf' in where) return `The answer of \`${where.answerOf}\`.`;
  return `${where.item ? 'An item of the' : 'The'} \`${where.property}\` of {@link ${where.owner}}.`;
}

interface Declared {
  /** The schema it was declared from, to tell a second schema of the same title. */
  source: string;
  text: string;
}

export class SchemaTypes {
  private readonly declared = new Map<string, Declared>();

  /**
   * @param document the OpenAPI document (for `$ref`s)
   * @param rename names to use instead of a title or component name (`Error` would shadow the global)
   */
  constructor(
    private readonly document: Json,
    private readonly rename: Readonly<Record<string, string>> = {},
  ) {}

  /** Every declaration so far, in the order of first use. */
  declarations(): string[] {
    return [...this.declared.values()].map((d) => d.text);
  }

  /** The type of a schema, written for a place indented by `indent`. */
  type(schema: Json, indent = '', where?: Where): string {
    if (typeof schema.$ref === 'string') return this.reference(schema.$ref, where);
    if (typeof schema.title === 'string') return this.named(schema.title, schema, where);
    return this.inline(schema, indent, where);
  }

  /** Declares `name` for a schema (once) and returns the name. */
  named(title: string, schema: Json, where?: Where): string {
    const name = this.rename[title] ?? title;
    const source = JSON.stringify(schema);
    const existing = this.declared.get(name);
    if (existing !== undefined) {
      if (existing.source !== source) throw new Error(`two different schemas are named ${name}: give one another title in the server's schemas`);
      return name;
    }
    // Declared before its body is written, so a schema that refers to itself ends.
    const entry: Declared = { source, text: '' };
    this.declared.set(name, entry);
    const { title: _title, description, ...rest } = schema;
    const body = this.inline(rest, '', undefined, name);
    // The generator's own words carry TSDoc links: they go unescaped, as tags do.
    const doc = description === undefined ? docComment([], '', [this.describe(rest) ?? whereText(where) ?? 'As the API answers it.']) : docComment([description], '');
    entry.text = body.startsWith('{') ? `${doc}export interface ${name} ${body}\n` : `${doc}export type ${name} = ${body};\n`;
    return name;
  }

  /** A page says what it is a page of. */
  private describe(schema: Json): string | undefined {
    const items = json(json(json(schema.properties).results).items);
    const item = typeof items.title === 'string' ? (this.rename[items.title] ?? items.title) : undefined;
    return item === undefined ? undefined : `One page of {@link ${item}} items, in the shape every list answers.`;
  }

  private reference(ref: string, where: Where | undefined): string {
    const match = /^#\/components\/schemas\/([^/]+)$/.exec(ref);
    if (!match?.[1]) throw new Error(`unsupported $ref ${ref}: only #/components/schemas/… is`);
    const component = json(json(json(this.document.components).schemas)[match[1]]);
    return this.named(match[1], { ...component, title: undefined }, where);
  }

  /** @param owner the name being declared, when this schema is its whole body */
  private inline(schema: Json, indent: string, where?: Where, owner?: string): string {
    const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
    if (union) return this.join(union.map((member) => this.type(json(member), indent, where)), ' | ');
    if (Array.isArray(schema.allOf)) return this.join(schema.allOf.map((member) => this.type(json(member), indent, where)), ' & ');
    if ('const' in schema) return literal(schema.const);
    if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ');
    if (Array.isArray(schema.type)) return this.join(schema.type.map((type) => this.inline({ ...schema, type }, indent, where)), ' | ');
    switch (schema.type) {
      case 'string':
        return 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array': {
        const item = this.type(json(schema.items), indent, where && 'owner' in where ? { ...where, item: true } : where);
        return /[|&]/.test(item) ? `Array<${item}>` : `${item}[]`;
      }
      case 'object':
        return this.object(schema, indent, owner);
      case undefined:
        return isJson(schema.properties) ? this.object(schema, indent, owner) : 'unknown';
      default:
        throw new Error(`unsupported schema type ${String(schema.type)}`);
    }
  }

  /** An object type: its properties with their TSDoc, and an index signature for additionalProperties. */
  object(schema: Json, indent: string, owner?: string): string {
    const properties = Object.entries(json(schema.properties));
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const extra = schema.additionalProperties;
    if (properties.length === 0) return isJson(extra) ? `Record<string, ${this.type(extra, indent)}>` : 'Record<string, unknown>';
    const inner = `${indent}  `;
    const lines = properties.map(([name, value]) => {
      const property = json(value);
      const optional = required.has(name) ? '' : '?';
      const where = owner === undefined ? undefined : { owner, property: name };
      return `${propertyDoc(property, inner)}${inner}${propertyKey(name)}${optional}: ${this.type(property, inner, where)};\n`;
    });
    if (isJson(extra)) lines.push(`${inner}[key: string]: ${this.type(extra, inner)};\n`);
    return `{\n${lines.join('')}${indent}}`;
  }

  private join(types: string[], separator: string): string {
    const unique = [...new Set(types)];
    return unique.length === 1 ? (unique[0] ?? 'unknown') : unique.map((t) => (t.includes('\n') && !t.startsWith('{') ? `(${t})` : t)).join(separator);
  }
}
