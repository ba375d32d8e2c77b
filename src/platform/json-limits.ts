import type { Readable } from 'node:stream';
import { ApiError, validationError } from './errors.js';

/**
 * Limits on a JSON document, checked on its bytes as they arrive, before any tree is built.
 * The bytes alone do not bound the memory: `{},` is 3 bytes and an empty object about 60 bytes of
 * heap, a `[` 1 byte and an array about 30 (a 100 MB body of brackets took 5.2 GB), and every new
 * field name grows a new hidden class. So the number of objects and arrays, of members, of distinct
 * field names and the depth are bounded too, and the first one crossed refuses the document.
 */
export interface JsonLimits {
  /** Bytes of the document (413 beyond). */
  maxBytes: number;
  /** Nesting of objects and arrays (422 beyond). */
  maxDepth: number;
  /** Objects and arrays in all (413 beyond). */
  maxContainers: number;
  /** Members of objects and arrays in all, counted by their separators (413 beyond). */
  maxMembers: number;
  /** Distinct field names (422 beyond). */
  maxFieldNames: number;
}

const OBJECT = 1;
const ARRAY = 2;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * A byte-level scanner of JSON structure (strings, brackets, commas, colons) that throws at the
 * first limit crossed. It does not validate: malformed JSON passes it and fails the parse after.
 * Structural characters are ASCII, so scanning UTF-8 bytes chunk by chunk is exact.
 */
export class JsonShapeScanner {
  private bytes = 0;
  private depth = 0;
  private containers = 0;
  private members = 0;
  private inString = false;
  private escaped = false;
  private isKey = false;
  private expectKey = false;
  private keyHash = 0;
  private readonly kinds: Uint8Array;
  private readonly fieldNames = new Set<number>();

  constructor(
    private readonly limits: JsonLimits,
    /** How the document is named in messages and details (`dataset`, a file name). */
    private readonly name: string,
  ) {
    this.kinds = new Uint8Array(limits.maxDepth + 2);
  }

  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limits.maxBytes) throw this.tooLarge(`is larger than ${describeBytes(this.limits.maxBytes)}`);
    for (let i = 0; i < chunk.length; i += 1) {
      const byte = chunk[i] ?? 0;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) {
          this.inString = false;
          if (this.isKey) this.addFieldName();
          continue;
        }
        // FNV-1a over the key's bytes: a collision can only undercount names, never refuse a good document.
        if (this.isKey) this.keyHash = Math.imul(this.keyHash ^ byte, 16_777_619);
        continue;
      }
      switch (byte) {
        case QUOTE:
          this.inString = true;
          this.isKey = this.expectKey;
          this.expectKey = false;
          this.keyHash = 2_166_136_261;
          break;
        case 0x7b: // {
          this.open(OBJECT);
          this.expectKey = true;
          break;
        case 0x5b: // [
          this.open(ARRAY);
          this.expectKey = false;
          break;
        case 0x7d: // }
        case 0x5d: // ]
          this.depth -= 1;
          this.expectKey = false;
          break;
        case 0x2c: // ,
          this.members += 1;
          if (this.members > this.limits.maxMembers) throw this.tooLarge(`has more than ${this.limits.maxMembers.toLocaleString('en')} values`);
          this.expectKey = this.kinds[Math.max(0, this.depth)] === OBJECT;
          break;
        case 0x3a: // :
          this.expectKey = false;
          break;
        default:
          break;
      }
    }
  }

  private open(kind: number): void {
    this.depth += 1;
    if (this.depth > this.limits.maxDepth) {
      throw validationError(this.name, 'maxDepth', `${this.name} is nested deeper than ${this.limits.maxDepth} levels`);
    }
    this.kinds[this.depth] = kind;
    this.containers += 1;
    if (this.containers > this.limits.maxContainers) {
      throw this.tooLarge(`has more than ${this.limits.maxContainers.toLocaleString('en')} objects and arrays`);
    }
  }

  private addFieldName(): void {
    this.fieldNames.add(this.keyHash);
    if (this.fieldNames.size > this.limits.maxFieldNames) {
      throw validationError(this.name, 'maxFieldNames', `${this.name} uses more than ${this.limits.maxFieldNames} distinct field names`);
    }
  }

  private tooLarge(what: string): ApiError {
    return new ApiError('PAYLOAD_TOO_LARGE', `${this.name} ${what}`);
  }
}

export function describeBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/**
 * Reads a stream as JSON text under `limits`, scanning each chunk as it arrives: a document
 * that crosses a limit is refused at that chunk, and the rest is never read or held.
 */
export function readBoundedJson(stream: Readable, limits: JsonLimits, name: string): Promise<string> {
  const scanner = new JsonShapeScanner(limits, name);
  const chunks: Buffer[] = [];
  let length = 0;
  return new Promise((resolve, reject) => {
    const stop = (error: unknown) => {
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', stop);
      chunks.length = 0;
      reject(error);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      try {
        scanner.push(bytes);
      } catch (error) {
        stop(error);
        return;
      }
      chunks.push(bytes);
      length += bytes.length;
    };
    const onEnd = () => {
      stream.removeListener('data', onData);
      stream.removeListener('error', stop);
      resolve(Buffer.concat(chunks, length).toString('utf8'));
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', stop);
    stream.resume();
  });
}
