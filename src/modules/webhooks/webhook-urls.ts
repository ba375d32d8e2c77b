import { validationError } from '../../platform/errors.js';
import { type AddressRules, isListedHost, rejectInwardAddress } from '../../platform/outbound/address-rules.js';

/** What decides whether a URL may receive webhooks. */
export interface WebhookUrlRules {
  rules: AddressRules;
  /** NODE_ENV=production: plain http only to an address OUTBOUND_ALLOW_CIDRS names. */
  production: boolean;
}

/**
 * The URL messages may be posted to: absolute https, without user info (a credential in a URL ends
 * up in logs and proxies; the signature is what authenticates us) or fragment, and not inward
 * (the outbound guard's ranges, as for check endpoints). Plain http would let anyone on the path
 * read the messages and replay them within the signature's tolerance, so production takes it only
 * to an address the operator vouched for; elsewhere it is allowed for local receivers.
 */
export async function webhookUrl(raw: string, { rules, production }: WebhookUrlRules): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationError('url', 'format', 'url must be an absolute https URL');
  }
  if (!['http:', 'https:'].includes(url.protocol)) throw validationError('url', 'format', 'url must be an absolute https URL');
  if (url.username !== '' || url.password !== '') throw validationError('url', 'format', 'url may not carry a user or password: messages are authenticated by their signature');
  if (url.hash !== '') throw validationError('url', 'format', 'url may not carry a fragment');
  if (url.protocol === 'http:' && production && !(await isListedHost(url, rules))) {
    throw validationError('url', 'https', 'url must be https: plain http is accepted only to an address the operator allowed (OUTBOUND_ALLOW_CIDRS)');
  }
  await rejectInwardAddress(url, rules);
  return url;
}
