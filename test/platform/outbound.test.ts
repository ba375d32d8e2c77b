import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddressRules } from '../../src/platform/outbound/address-rules.js';
import { postJson } from '../../src/platform/outbound/safe-request.js';

/** A real HTTP server on 127.0.0.1 whose answer each test chooses by path. */
let server: Server;
let port: number;
const received: Array<{ path: string; headers: IncomingMessage['headers']; body: string }> = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/json') res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      else if (req.url === '/text') res.writeHead(200).end('not json');
      else if (req.url === '/error') res.writeHead(500).end('{}');
      else if (req.url === '/redirect') res.writeHead(302, { location: `http://127.0.0.1:${port}/json` }).end();
      else if (req.url === '/large') res.writeHead(200).end(`"${'x'.repeat(300 * 1024)}"`);
      else if (req.url === '/deep') res.writeHead(200).end(`${'{"a":'.repeat(65)}1${'}'.repeat(65)}`);
      else if (req.url === '/deep-enough') res.writeHead(200).end(`${'{"a":'.repeat(64)}1${'}'.repeat(64)}`);
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('{}'), 2_000);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const open = { rules: createAddressRules(['127.0.0.0/8', '::1/128']), timeoutMs: 1_000, maxAnswerBytes: 256 * 1024 };
const closed = { ...open, rules: createAddressRules([]) };
const post = (url: string, limits = open) => postJson({ url: new URL(url), headers: { authorization: 'Bearer t0k3n' }, body: { a: 1 } }, limits);

describe('the address rules', () => {
  const rules = createAddressRules([]);
  it('refuse loopback, private, shared, link-local, metadata, unspecified, multicast, IPv6 local and IPv4-mapped', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a00:1',
      // IPv6 forms that carry an IPv4 address the network delivers to: the local-use NAT64 prefix
      // (whatever it embeds), 6to4, SIIT's IPv4-translated form and Teredo (its server, or its
      // client stored inverted).
      '64:ff9b:1::7f00:1',
      '64:ff9b:1:ffff::8.8.8.8',
      '2002:7f00:1::',
      '2002:a9fe:a9fe::1',
      '::ffff:0:7f00:1',
      '::ffff:0:169.254.169.254',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '2001:0:a9fe:a9fe::1',
      'not-an-address',
    ]) {
      expect(rules.permits(address), address).toBe(false);
    }
  });
  it('permit public addresses', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1', '::ffff:0:8.8.8.8', '2001:0:4136:e378:8000:63bf:f7f7:f7f7']) {
      expect(rules.permits(address), address).toBe(true);
    }
  });
  it('permit what OUTBOUND_ALLOW_CIDRS names, and only that', () => {
    const allowed = createAddressRules(['10.1.0.0/16']);
    expect(allowed.permits('10.1.2.3')).toBe(true);
    expect(allowed.permits('::ffff:10.1.2.3')).toBe(true);
    expect(allowed.permits('10.2.0.1')).toBe(false);
  });
});

describe('postJson', () => {
  it('sends the JSON body with the headers given and reads a JSON answer', async () => {
    const before = received.length;
    expect(await post(`http://127.0.0.1:${port}/json`)).toEqual({ kind: 'answered', status: 200, body: { ok: true } });
    expect(received[before]).toMatchObject({ path: '/json', body: '{"a":1}', headers: { authorization: 'Bearer t0k3n', 'content-type': 'application/json' } });
  });

  it('refuses 127.0.0.1, [::1], 10.x and 169.254.169.254 without connecting, unless allowed', async () => {
    const before = received.length;
    for (const url of [
      `http://127.0.0.1:${port}/json`,
      `http://[::1]:${port}/json`,
      'http://10.0.0.1/json',
      'http://169.254.169.254/latest/meta-data',
      `http://[64:ff9b:1::7f00:1]:${port}/json`,
      `http://[2002:7f00:1::]:${port}/json`,
      `http://[::ffff:0:7f00:1]:${port}/json`,
      `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${port}/json`,
    ]) {
      expect((await post(url, closed)).kind, url).toBe('refused');
    }
    expect(received.length).toBe(before);
  });

  it('checks the addresses a name resolves to, then connects to a checked one (localhost is refused unless allowed)', async () => {
    const before = received.length;
    expect((await post(`http://localhost:${port}/json`, closed)).kind).toBe('refused');
    expect(received.length).toBe(before);
    // localhost may resolve to ::1 first, where nothing listens: either way it is allowed and tried.
    expect(['answered', 'failed']).toContain((await post(`http://localhost:${port}/json`)).kind);
  });

  it('follows no redirect, and calls an answer that is not 2xx, not JSON, too large or too deep unusable', async () => {
    const before = received.length;
    expect(await post(`http://127.0.0.1:${port}/redirect`)).toMatchObject({ kind: 'unusable', status: 302 });
    expect(received.slice(before).map((r) => r.path)).toEqual(['/redirect']);
    expect(await post(`http://127.0.0.1:${port}/error`)).toMatchObject({ kind: 'unusable', status: 500 });
    expect(await post(`http://127.0.0.1:${port}/text`)).toMatchObject({ kind: 'unusable', reason: 'the answer is not JSON' });
    expect(await post(`http://127.0.0.1:${port}/large`)).toMatchObject({ kind: 'unusable', reason: expect.stringMatching(/larger than 262144 bytes/) });
    expect(await post(`http://127.0.0.1:${port}/deep`)).toEqual({ kind: 'unusable', status: 200, reason: 'the answer is nested deeper than 64 levels' });
    expect(await post(`http://127.0.0.1:${port}/deep-enough`)).toMatchObject({ kind: 'answered', status: 200 });
  });

  it('gives up at the deadline', async () => {
    expect(await post(`http://127.0.0.1:${port}/slow`, { ...open, timeoutMs: 200 })).toEqual({ kind: 'timeout' });
  });

  it('reports a connection that fails', async () => {
    expect(await post('http://127.0.0.1:9/json')).toMatchObject({ kind: 'failed' });
  });
});
