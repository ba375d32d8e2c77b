import type { FastifyRequest } from 'fastify';

/**
 * The issuer identifier of the RFC 8414 metadata, which a client compares with the URL it was
 * configured with: PUBLIC_URL when set, otherwise the origin the request came to — the Host
 * header and the protocol of the connection, which Fastify takes from X-Forwarded-Host and
 * -Proto only when they come from the TRUST_PROXY hops (off by default: behind a TLS-terminating
 * proxy, set PUBLIC_URL or TRUST_PROXY). A Host that is not a plain `host[:port]`
 * falls back to the listen address (decision 0073).
 */
export function issuerOf(request: FastifyRequest, publicUrl: string | undefined, fallback: string): string {
  return publicUrl ?? requestOrigin(request) ?? fallback;
}

function requestOrigin(request: FastifyRequest): string | undefined {
  const host = request.host;
  if (typeof host !== 'string' || host === '') return undefined;
  try {
    const url = new URL(`${request.protocol}://${host}`);
    // A Host with a path, user info, query or fragment is not an origin: not echoed as one.
    const plain = url.pathname === '/' && url.username === '' && url.password === '' && url.search === '' && url.hash === '' && !host.includes('?') && !host.includes('#');
    return plain ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** `http://HOST:PORT` of the listen address, IPv6 in brackets. */
export function listenOrigin(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
