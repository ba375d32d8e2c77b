/** Bytes of a pointer, a number or a small header on the V8 heap (64-bit). */
const WORD = 8;
const OBJECT_HEADER = 3 * WORD;
/** Deeper than any value we cache; past it the rest counts as one word, so a cycle cannot hang. */
const MAX_DEPTH = 32;

/**
 * A rough upper estimate of the heap bytes a value holds: enough to bound a cache by bytes,
 * not an account of every byte. Strings count two bytes a character, typed arrays their
 * buffer, arrays, maps, sets and plain objects a header, a slot per element and what the
 * slots hold. Property names are not counted: objects of one shape share them.
 */
export function approximateSize(value: unknown, depth = 0): number {
  if (typeof value === 'string') return OBJECT_HEADER + 2 * value.length;
  if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return WORD;
  if (ArrayBuffer.isView(value)) return OBJECT_HEADER + value.byteLength;
  let bytes = OBJECT_HEADER;
  if (Array.isArray(value)) {
    for (const element of value) bytes += WORD + approximateSize(element, depth + 1);
  } else if (value instanceof Map) {
    for (const [key, element] of value) bytes += 3 * WORD + approximateSize(key, depth + 1) + approximateSize(element, depth + 1);
  } else if (value instanceof Set) {
    for (const element of value) bytes += 2 * WORD + approximateSize(element, depth + 1);
  } else {
    for (const element of Object.values(value)) bytes += WORD + approximateSize(element, depth + 1);
  }
  return bytes;
}
