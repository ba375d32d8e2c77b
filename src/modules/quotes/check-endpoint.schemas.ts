import { type Static, Type } from 'typebox';
import { matching } from '../../platform/http/validation.js';

/**
 * The wire shapes of a client's check endpoint, in Odditt's `{success, data}` envelope. The token
 * goes in and never comes out: answers carry only its masked preview.
 */

export const CHECK_ENDPOINT_METHODS = ['POST'] as const;

/** RFC 9110 §5.1: a header name is a token. */
const HEADER_NAME = '^[!#$%&\'*+.^_`|~0-9A-Za-z-]+$';
/** Visible characters only: a space, CR or LF in a scheme or token would split or forge header lines. */
const VISIBLE = '^[\\x21-\\x7e]*$';

export const SetCheckEndpointBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'Absolute http(s) URL of your pricing endpoint (https recommended). It may not resolve to a loopback, private, link-local or ' +
        "metadata address, unless the operator allowed the range (OUTBOUND_ALLOW_CIDRS); this service's own `/v1/trends/flows/quote-sandbox` " +
        'is always accepted and answered in process.',
    }),
    method: Type.Enum(CHECK_ENDPOINT_METHODS, { description: 'HTTP method of the calls: `POST`.' }),
    auth_token: Type.String({ minLength: 1, maxLength: 4096, ...matching(VISIBLE, 'visible ASCII characters only (no spaces or line breaks)'), description: 'The credential sent with every call. Stored encrypted, never returned.' }),
    auth_header_name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, ...matching(HEADER_NAME, 'an HTTP header name (letters, digits and !#$%&\'*+.^_`|~-)'), description: 'Header carrying the credential. Default `Authorization`.' }),
    ),
    auth_scheme: Type.Optional(
      Type.String({
        maxLength: 100,
        ...matching(VISIBLE, 'visible ASCII characters only (no spaces or line breaks)'),
        description: 'Prefix before the token in the header. Default `Bearer` when auth_header_name is absent, else none; empty: the raw token.',
      }),
    ),
    allow_multiple: Type.Optional(
      Type.Boolean({ default: false, description: 'True: one call with the array of every hydrated payload; false (default): one call per flow, in parallel.' }),
    ),
  },
  { title: 'SetCheckEndpoint', additionalProperties: false },
);
export type SetCheckEndpointBody = Static<typeof SetCheckEndpointBody>;

export const CheckEndpointData = Type.Object(
  {
    url: Type.String({ description: 'The URL called.' }),
    method: Type.String({ description: 'The HTTP method of the calls.' }),
    auth_header_name: Type.String({ description: 'The header carrying the credential.' }),
    auth_scheme: Type.String({ description: 'The prefix before the token; empty: the raw token.' }),
    auth_token_preview: Type.String({ description: 'The last 4 characters of the token after `…` (only `…` for a token shorter than 8). Never the token.' }),
    allow_multiple: Type.Boolean({ description: 'One call with an array (true) or one call per flow (false).' }),
    created_at: Type.String({ format: 'date-time', description: 'When the endpoint was first set (ISO 8601, UTC).' }),
    updated_at: Type.String({ format: 'date-time', description: 'When it was last set (ISO 8601, UTC).' }),
  },
  { title: 'CheckEndpoint', additionalProperties: false, description: 'The registered check endpoint.' },
);
export type CheckEndpointData = Static<typeof CheckEndpointData>;

export const CheckEndpointAnswer = Type.Object(
  {
    success: Type.Boolean({ description: 'Always true on 200 (Odditt\'s envelope).' }),
    data: Type.Union([CheckEndpointData, Type.Null()], { description: 'The check endpoint; null when none is set (or after a delete).' }),
  },
  { title: 'CheckEndpointAnswer', additionalProperties: false },
);
