import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { JsonShapeScanner } from '../json-limits.js';
import type { AddressRules } from './address-rules.js';

/** What one outbound JSON call gave: the answer, or why there is none. */
export type OutboundResult =
  | { readonly kind: 'answered'; readonly status: number; readonly body: unknown }
  /** The answer was not 2xx, not JSON, or larger than the cap. */
  | { readonly kind: 'unusable'; readonly status: number | null; readonly reason: string }
  /** Nothing was sent: the address is one outbound calls may not reach, or the host does not resolve. */
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'timeout' };

export interface OutboundCall {
  readonly url: URL;
  /** Sent as they are: the caller puts the credential here and keeps it out of every log. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

export interface OutboundLimits {
  readonly rules: AddressRules;
  readonly timeoutMs: number;
  readonly maxAnswerBytes: number;
}

class Refused extends Error {}

/**
 * POSTs JSON to a URL a client gave, guarded against being pointed inwards (postGuarded). A 3xx
 * is an unusable answer, not followed, and an answer past the cap is cut off.
 */
export function postJson(call: OutboundCall, limits: OutboundLimits): Promise<OutboundResult> {
  const payload = Buffer.from(JSON.stringify(call.body), 'utf8');
  const headers = { ...call.headers, 'content-type': 'application/json', accept: 'application/json' };
  return postGuarded<OutboundResult>(call.url, headers, payload, limits, (res, settle) => readAnswer(res, limits.maxAnswerBytes, settle));
}

/** What one outbound POST of given bytes gave, whatever the status: the answer's first bytes, or why there is none. */
export type OutboundBytesResult =
  | { readonly kind: 'answered'; readonly status: number; readonly excerpt: Buffer }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'timeout' };

/**
 * POSTs `payload` as it is (a signature may cover its exact bytes) under the same guard as
 * postJson; any status is an answer, of which the first `limits.maxAnswerBytes` bytes are kept.
 */
export function postBytes(url: URL, headers: Readonly<Record<string, string>>, payload: Buffer, limits: OutboundLimits): Promise<OutboundBytesResult> {
  return postGuarded<OutboundBytesResult>(url, headers, payload, limits, (res, settle) => readExcerpt(res, limits.maxAnswerBytes, settle));
}

type Settled = { readonly kind: 'refused'; readonly reason: string } | { readonly kind: 'failed'; readonly reason: string } | { readonly kind: 'timeout' };

/**
 * The guard itself. The host is resolved once, every address checked, and the connection made to
 * a checked address through `lookup`, so a name that resolves elsewhere on a second query (DNS
 * rebinding) cannot slip past; the peer's address is checked again once connected, which covers a
 * literal address and anything a lookup did not see. No redirect is followed, the whole call has
 * one deadline, and `onResponse` reads the answer.
 */
function postGuarded<R>(
  url: URL,
  headers: Readonly<Record<string, string>>,
  payload: Buffer,
  limits: OutboundLimits,
  onResponse: (res: IncomingMessage, settle: (result: R | Settled) => void) => void,
): Promise<R | Settled> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !limits.rules.permits(host)) return Promise.resolve({ kind: 'refused', reason: 'the address is not one outbound calls may reach' });
  const lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      // Every address must be allowed: a name with one public and one internal address could
      // otherwise be steered to the internal one by whichever the connection happens to try.
      const first = addresses[0];
      if (first === undefined || addresses.some((a) => !limits.rules.permits(a.address))) {
        return callback(new Refused('the host resolves to an address outbound calls may not reach'), '', 0);
      }
      if (options.all) return callback(null, [first]);
      return callback(null, first.address, first.family);
    });
  };
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: R | Settled) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
      req.destroy();
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      lookup,
      // A fresh connection per call: a pooled socket would skip the address check of this call.
      agent: false,
      headers: { ...headers, 'content-length': String(payload.length) },
    });
    const timer = setTimeout(() => settle({ kind: 'timeout' }), limits.timeoutMs);
    req.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        const peer = socket.remoteAddress;
        if (peer === undefined || !limits.rules.permits(peer)) settle({ kind: 'refused', reason: 'the connected address is not one outbound calls may reach' });
      });
    });
    req.on('error', (error) => {
      if (error instanceof Refused) settle({ kind: 'refused', reason: error.message });
      else settle({ kind: 'failed', reason: connectionReason(error) });
    });
    req.on('response', (res: IncomingMessage) => onResponse(res, settle));
    req.end(payload);
  });
}

/** The answer's status and its first `maxBytes` bytes; the rest is not waited for. */
function readExcerpt(res: IncomingMessage, maxBytes: number, settle: (result: OutboundBytesResult) => void): void {
  const status = res.statusCode ?? 0;
  const chunks: Buffer[] = [];
  let size = 0;
  const done = () => settle({ kind: 'answered', status, excerpt: Buffer.concat(chunks).subarray(0, maxBytes) });
  res.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= maxBytes) done();
  });
  res.on('error', done);
  res.on('end', done);
}

/**
 * The deepest answer taken. Prices are a few levels deep; an answer nested thousands of levels
 * (a few bytes a level, well under the size cap) would overflow the stack of whatever walks it
 * next, the reply's serializer first.
 */
export const MAX_ANSWER_DEPTH = 64;

function readAnswer(res: IncomingMessage, maxBytes: number, settle: (result: OutboundResult) => void): void {
  const status = res.statusCode ?? 0;
  const chunks: Buffer[] = [];
  let size = 0;
  const shape = new JsonShapeScanner(
    { maxBytes: Infinity, maxDepth: MAX_ANSWER_DEPTH, maxContainers: Infinity, maxMembers: Infinity, maxFieldNames: Infinity },
    'the answer',
  );
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) return settle({ kind: 'unusable', status, reason: `the answer is larger than ${maxBytes} bytes` });
    try {
      shape.push(chunk);
    } catch (error) {
      return settle({ kind: 'unusable', status, reason: error instanceof Error ? error.message : 'the answer is not JSON' });
    }
    chunks.push(chunk);
  });
  res.on('error', () => settle({ kind: 'failed', reason: 'the connection broke during the answer' }));
  res.on('end', () => {
    if (status < 200 || status > 299) return settle({ kind: 'unusable', status, reason: `the endpoint answered ${status}` });
    try {
      settle({ kind: 'answered', status, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
    } catch {
      settle({ kind: 'unusable', status, reason: 'the answer is not JSON' });
    }
  });
}

/** A line about a failed connection that names its kind, never the request's headers. */
function connectionReason(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === undefined ? 'the connection failed' : `the connection failed (${code})`;
}
