import { randomUUID } from 'node:crypto';
import { type AccountCredentialKind, digest, generateCredential, previewOf } from '../auth/index.js';
import type { NewCredentialRow } from './credentials.repository.js';

/** A fresh credential: the plaintext, shown once, and the row that stores only its digest. */
export function newCredential(input: {
  clientId: string;
  kind: AccountCredentialKind;
  name: string;
  now: number;
  expiresAt?: number | null;
}): { plaintext: string; row: NewCredentialRow } {
  const plaintext = generateCredential(input.kind === 'api_key' ? 'apiKey' : 'clientSecret');
  return {
    plaintext,
    row: {
      code: randomUUID(),
      clientId: input.clientId,
      kind: input.kind,
      digest: digest(plaintext),
      name: input.name,
      preview: previewOf(plaintext),
      createdAt: input.now,
      expiresAt: input.expiresAt ?? null,
      lastUsedAt: null,
    },
  };
}
