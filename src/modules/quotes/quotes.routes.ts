import type { FastifyRequest } from 'fastify';
import type { App, ModuleRoutes } from '../../platform/http/types.js';
import { isThisMachine } from '../../platform/outbound/address-rules.js';
import { clientActor } from '../audit/index.js';
import { type FlowVocabulary, principalOf } from '../auth/index.js';
import type { ClientPolicy } from '../policy/index.js';
import { ODDITT_NAME } from '../trends/index.js';
import { CheckEndpointAnswer, SetCheckEndpointBody } from './check-endpoint.schemas.js';
import { type CheckEndpoints, SANDBOX_PATH } from './check-endpoints.js';
import type { QuoteService } from './quote.service.js';
import { type QuoteItem, QuoteBatch, QuoteResults, SandboxAnswer, SandboxBody } from './quotes.schemas.js';
import { sandboxQuote } from './sandbox.js';

/** The check endpoint is account state: the minute only, never cached, for the tiers that quote. */
const CHECK_ENDPOINT: ClientPolicy = { auth: 'client', tier: 'quotes', limit: 'account', usage: 'account', cache: 'no-store' };
/** A quote is a trends call, counted once however many outbound calls it makes; prices change, so nothing keeps it. */
const QUOTE: ClientPolicy = { auth: 'client', tier: 'quotes', limit: 'data', usage: 'trends', cache: 'no-store', errors: ['PRECONDITION_FAILED'] };

export interface QuotesDeps {
  endpoints: CheckEndpoints;
  quotes: QuoteService;
  publicUrl: string | undefined;
}

/**
 * Quotes through the client's own pricing endpoint (Odditt's check endpoint): its registration
 * under /v1/account, the quote itself and the sandbox operator that stands in for a real one.
 */
export const quotesRoutes: ModuleRoutes<QuotesDeps> = async (app, { endpoints, quotes, publicUrl }) => {
  /** The origins this service is reached at: PUBLIC_URL, and the one the request came to. */
  const configured = publicUrl === undefined ? [] : [publicUrl];
  const requestOrigin = (request: FastifyRequest) => originOf(`${request.protocol}://${request.host}`);
  const ownOrigins = (request: FastifyRequest) => [...configured, requestOrigin(request)];
  /**
   * Where a sandbox URL may be registered whatever its address: PUBLIC_URL, and the request's own
   * origin only when its host is this machine. A Host header is the caller's to write, and
   * `Host: 169.254.169.254` must not make the metadata address ours.
   */
  const registrableOrigins = async (request: FastifyRequest) => {
    const requested = requestOrigin(request);
    return requested !== '' && (await isThisMachine(new URL(requested).hostname)) ? [...configured, requested] : configured;
  };
  checkEndpointRoutes(app, endpoints, registrableOrigins);
  quoteRoutes(app, quotes, ownOrigins);
};

/** GET, POST and DELETE /v1/account/check-endpoint: the account's one check endpoint. */
function checkEndpointRoutes(app: App, endpoints: CheckEndpoints, registrableOrigins: (request: FastifyRequest) => Promise<readonly string[]>): void {
  const tags = ['account'];

  app.get(
    '/v1/account/check-endpoint',
    {
      config: { policy: CHECK_ENDPOINT },
      schema: { tags, summary: 'The check endpoint', description: 'The registered check endpoint, with its token masked; `data: null` when none is set.', response: { 200: CheckEndpointAnswer } },
    },
    async (request) => ({ success: true, data: await endpoints.view(principalOf(request).client.id) }),
  );

  app.post(
    '/v1/account/check-endpoint',
    {
      config: { policy: CHECK_ENDPOINT },
      schema: {
        tags,
        summary: 'Set the check endpoint',
        description:
          'Stores (or replaces) the one URL quotes are priced at, with the credential sent to it (stored encrypted, never returned). ' +
          'A URL whose host is or resolves to a loopback, private, link-local or metadata address is 422.',
        body: SetCheckEndpointBody,
        response: { 200: CheckEndpointAnswer },
      },
    },
    async (request) => ({ success: true, data: await endpoints.set(principalOf(request).client.id, request.body, await registrableOrigins(request), clientActor(request)) }),
  );

  app.delete(
    '/v1/account/check-endpoint',
    {
      config: { policy: CHECK_ENDPOINT },
      schema: { tags, summary: 'Delete the check endpoint', description: 'Forgets the endpoint and its credential; 200 also when none was set.', response: { 200: CheckEndpointAnswer } },
    },
    async (request) => {
      await endpoints.remove(principalOf(request).client.id, clientActor(request));
      return { success: true, data: null };
    },
  );
}

/** The quote, and the sandbox operator a check endpoint can be set to. */
function quoteRoutes(app: App, quotes: QuoteService, ownOrigins: (request: FastifyRequest) => readonly string[]): void {
  app.post(
    '/v1/trends/flows/quote',
    {
      config: { policy: QUOTE },
      schema: {
        tags: ['trends'],
        summary: 'Quote flows at your check endpoint',
        description:
          'A JSON array of 1 to 50 flows (the one body that is an array, as in Odditt). Each is hydrated into the payload your check endpoint ' +
          'receives (`event_betting_market_position_maps`) and sent, at most 8 calls at a time, one per flow or one with the array ' +
          '(`allow_multiple`), each with 5 s to answer and 256 KiB of answer. One entry per flow, in input order, each with its own status. ' +
          '412 when no check endpoint is set.',
        body: QuoteBatch,
        response: { 200: QuoteResults },
      },
    },
    async (request) => {
      const { client } = principalOf(request);
      return quotes.quote(client.id, namedIn(client.flowVocabulary, request.body), ownOrigins(request), request.log);
    },
  );

  app.post(
    SANDBOX_PATH,
    {
      // Odditt's sandbox takes no credential: it reads nothing of ours and prices from its input alone.
      config: { policy: { auth: 'none', cache: 'no-store' } },
      schema: {
        tags: ['trends'],
        summary: 'The sandbox operator',
        description:
          'A stand-in for a sportsbook\'s pricing endpoint: takes one hydrated payload (what quotes send) and answers synthetic prices, ' +
          'the same for the same payload, with about 15% of legs failing and of parlays refusing to combine. Set it as your check endpoint ' +
          'to try quotes end to end: this service then answers it in process. Not for production traffic.',
        body: SandboxBody,
        response: { 200: SandboxAnswer },
      },
    },
    (request) => sandboxQuote(request.body),
  );
}

/**
 * The items as an account answering in Odditt's vocabulary means them: a type of ours is asked as
 * Odditt's name of it (`fact` as `fact_flow`, `plain` as `plain_flow_parlay`), which the answer and
 * the check endpoint's payload then carry, as every flow answer to that account does.
 */
function namedIn(vocabulary: FlowVocabulary, items: readonly QuoteItem[]): readonly QuoteItem[] {
  if (vocabulary === 'ours') return items;
  return items.map((item) => (item.flow_type === 'fact' || item.flow_type === 'fun' || item.flow_type === 'plain' ? { ...item, flow_type: ODDITT_NAME[item.flow_type] } : item));
}

/** An origin as URL writes it (no default port), or none for a Host header that makes no URL. */
function originOf(text: string): string {
  try {
    return new URL(text).origin;
  } catch {
    return '';
  }
}
