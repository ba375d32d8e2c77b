import { request as httpRequest } from 'node:http';
import type autocannon from 'autocannon';
import type { Scenario } from './load.js';

/** One answer of the API, byte for byte: what the same-bytes anchor sends back. */
export interface RecordedAnswer {
  status: number;
  /** Name, value, name, value…, without what node:http adds on its own (date, connection). */
  headers: string[];
  body: Buffer;
}

/** A request with everything filled in: what autocannon sends once setupRequest has run. */
export interface ConcreteRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const ADDED_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * Sends a scenario's first request once, as autocannon would (setupRequest applied, onResponse
 * told, so a chain of rotating refresh tokens stays whole), and records the answer. The anchor
 * is then loaded with this concrete request, so that it reads the same bytes and sends the same.
 */
export async function recordAnswer(baseUrl: string, scenario: Scenario): Promise<{ request: ConcreteRequest; answer: RecordedAnswer }> {
  const first = scenario.requests[0];
  if (!first) throw new Error(`scenario ${scenario.name} has no request`);
  // autocannon also takes the names of exported functions here; the bench's scenarios pass functions.
  const setup = typeof first.setupRequest === 'function' ? first.setupRequest : undefined;
  const prepared = setup ? setup({ ...first }, {}) : first;
  const request: ConcreteRequest = {
    method: prepared.method ?? 'GET',
    path: prepared.path ?? '/',
    headers: { ...scenario.headers, ...(prepared.headers as Record<string, string> | undefined) },
    ...(typeof prepared.body === 'string' ? { body: prepared.body } : {}),
  };
  const answer = await send(scenario.baseUrl ?? baseUrl, request);
  if (typeof first.onResponse === 'function') first.onResponse(answer.status, answer.body.toString('utf8'), {}, undefined);
  return { request, answer };
}

function send(baseUrl: string, request: ConcreteRequest): Promise<RecordedAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${request.path}`, { method: request.method, headers: request.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i] ?? '';
          if (!ADDED_BY_NODE.has(name.toLowerCase())) headers.push(name, res.rawHeaders[i + 1] ?? '');
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(request.body);
  });
}

/** The anchor's scenario: the recorded request, with no per-request state. */
export function anchorScenario(scenario: Scenario, request: ConcreteRequest, anchorUrl: string): Scenario {
  return {
    name: `${scenario.name} (same-bytes bare)`,
    baseUrl: anchorUrl,
    ...(scenario.connections === undefined ? {} : { connections: scenario.connections }),
    requests: [{ method: request.method as autocannon.Request['method'], path: request.path, headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) }],
  };
}
