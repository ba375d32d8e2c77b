import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals and opens, with AES-256-GCM under the service's one 32-byte key (ENCRYPTION_KEY), what the
 * service must use but never show: the check endpoints' tokens, the webhooks' signing secrets.
 */
export interface SecretCipher {
  /** A fresh IV each time: the same text sealed twice gives two texts. */
  seal(text: string): string;
  /** Throws when the text was not sealed under this key or was altered (the GCM tag fails). */
  open(sealed: string): string;
}

export function createSecretCipher(key: Buffer): SecretCipher {
  return {
    seal(text) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed) {
      const bytes = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}
