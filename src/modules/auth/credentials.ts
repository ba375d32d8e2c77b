import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Opaque credentials: a typed prefix, 256 random bits in base62 and a CRC32 checksum, e.g.
 * `sdk_3xK…Qz0a1B2c`. The checksum lets us reject typos and garbage before touching the
 * database; the prefix tells a leaked string's kind at a glance (and to secret scanners).
 */
export const CREDENTIAL_PREFIX = {
  apiKey: 'sdk',
  clientSecret: 'sds',
  refreshToken: 'sdr',
} as const;

export type CredentialKind = keyof typeof CREDENTIAL_PREFIX;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 43; // ceil(256 / log2(62))
const CHECKSUM_LENGTH = 6; // ceil(32 / log2(62))
const SHAPE = /^(sdk|sds|sdr)_[0-9A-Za-z]{49}$/;

export function generateCredential(kind: CredentialKind): string {
  const head = `${CREDENTIAL_PREFIX[kind]}_${base62(randomBytes(32), BODY_LENGTH)}`;
  return head + checksum(head);
}

/** True when `value` has the shape and checksum of a credential of this kind. */
export function isWellFormedCredential(kind: CredentialKind, value: unknown): value is string {
  if (typeof value !== 'string' || !SHAPE.test(value) || !value.startsWith(`${CREDENTIAL_PREFIX[kind]}_`)) return false;
  const head = value.slice(0, -CHECKSUM_LENGTH);
  return checksum(head) === value.slice(-CHECKSUM_LENGTH);
}

/** A JWT's parts: a base64url JSON header (`eyJ…`), then its claims and signature. */
const JWT_SHAPE = /^eyJ[\w-]*\.[\w-]*(?:\.[\w-]*)?$/;

/**
 * True when `value` is a secret of a kind the service knows: one of its credentials (the checksum
 * holds), a webhook signing secret (`whsec_…`, as the check endpoints' senders name theirs) or a
 * JWT. Such text is never repeated where it could be read back (a request id in a log).
 */
export function isSecretText(value: string): boolean {
  if (value.startsWith('whsec_') || JWT_SHAPE.test(value)) return true;
  return (Object.keys(CREDENTIAL_PREFIX) as CredentialKind[]).some((kind) => isWellFormedCredential(kind, value));
}

/**
 * What a listing shows of a credential: its typed prefix and last 4 characters (`sdk_…a1B2`),
 * enough to tell keys apart. The last characters are checksum, not the random body.
 */
export function previewOf(value: string): string {
  return `${value.slice(0, 4)}…${value.slice(-4)}`;
}

/** What we store instead of a credential: its SHA-256, hex. */
export function digest(value: string): string {
  // One-shot hash: this runs on every X-API-Key call.
  return hash('sha256', value, 'hex');
}

/** Compares two hex digests without leaking, through timing, where they first differ. */
export function digestsEqual(a: string, b: string): boolean {
  // The hex text itself is compared (latin1 copies it byte for byte, cheaper than decoding).
  const left = Buffer.from(a, 'latin1');
  const right = Buffer.from(b, 'latin1');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** Compares two secrets of any length in constant time (by comparing their digests). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

function checksum(head: string): string {
  // A CRC32 fits a double exactly: plain arithmetic, no BigInt, on every credential check.
  let n = crc32(head);
  let out = '';
  while (n > 0) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out.padStart(CHECKSUM_LENGTH, '0');
}

function base62(input: Buffer, length: number): string {
  let n = BigInt(`0x${input.toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(length, '0');
}
