import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import { type FleetReply, type FleetRequest, monotonicMs, type StreamReport } from './protocol.js';

/**
 * A process of odds-stream clients for bench/streams.ts (spawned with an IPC channel by
 * bench/streams/fleet.ts): the streams it is told to open are read here, not in the bench's own
 * process nor the server's, so that reading thousands of streams shares neither's event loop.
 *
 * Every stream is read, none is parsed: a stream that follows every change carries hundreds of
 * kilobytes a second, and parsing all of them would make this process, not the server, the limit.
 * Each chunk is searched (natively, Buffer#indexOf) for the probe's marker, `"odds_id":ID,`, which
 * only the probe's price changes hold; the time each is seen (CLOCK_MONOTONIC, shared by every
 * process of the machine) is kept. The bench pairs a stream's n-th probe with the feed's n-th batch.
 */

/** Streams opened at once: enough to open thousands in seconds, few enough not to look like a flood. */
const OPENING_AT_ONCE = 50;

interface Reading {
  req: ClientRequest | undefined;
  report: StreamReport;
  closing: boolean;
}

const readings: Reading[] = [];

/** Opens one stream; resolves once its first bytes (the `: connected` comment) have come, or it was refused. */
function open(url: string, apiKey: string, marker: Buffer): Promise<void> {
  const reading: Reading = { req: undefined, report: { status: 0, error: '', bytes: 0, seen: [], ended: false }, closing: false };
  readings.push(reading);
  const { report } = reading;
  return new Promise((resolve) => {
    const req = request(url, { headers: { 'x-api-key': apiKey }, agent: false }, (res: IncomingMessage) => {
      report.status = res.statusCode ?? 0;
      if (report.status !== 200) {
        res.setEncoding('utf8');
        res.on('data', (text: string) => (report.error += text));
        res.on('end', resolve);
        return;
      }
      let carry = Buffer.alloc(0);
      res.on('data', (chunk: Buffer) => {
        const now = monotonicMs();
        if (report.bytes === 0) resolve();
        report.bytes += chunk.length;
        // A marker cut in two by the chunks: found in the end of the last one joined to the start of this one.
        if (carry.length > 0 && Buffer.concat([carry, chunk.subarray(0, marker.length - 1)]).includes(marker)) report.seen.push(now);
        for (let at = chunk.indexOf(marker); at >= 0; at = chunk.indexOf(marker, at + marker.length)) report.seen.push(now);
        carry = Buffer.from(chunk.subarray(Math.max(0, chunk.length - (marker.length - 1))));
      });
      res.on('close', () => {
        if (!reading.closing) report.ended = true;
        resolve();
      });
    });
    reading.req = req;
    req.on('error', (error) => {
      if (reading.closing) return;
      report.ended = true;
      report.error ||= error.message;
      resolve();
    });
    req.end();
  });
}

async function openAll(url: string, keys: string[], marker: Buffer): Promise<void> {
  for (let i = 0; i < keys.length; i += OPENING_AT_ONCE) {
    await Promise.all(keys.slice(i, i + OPENING_AT_ONCE).map((key) => open(url, key, marker)));
  }
}

const reply = (message: FleetReply) => process.send?.(message);

process.on('message', (message: FleetRequest) => {
  if (message.type === 'open') {
    void openAll(message.url, message.apiKeys, Buffer.from(message.marker)).then(() =>
      reply({ type: 'opened', refused: readings.filter((r) => r.report.status !== 200).map((r) => `${r.report.status}: ${r.report.error}`) }),
    );
  } else if (message.type === 'progress') {
    reply({ type: 'progress', fewestSeen: Math.min(...readings.map((r) => r.report.seen.length)), ended: readings.filter((r) => r.report.ended).length });
  } else if (message.type === 'report') {
    reply({ type: 'report', streams: readings.map((r) => r.report) });
  } else if (message.type === 'close') {
    for (const reading of readings) {
      reading.closing = true;
      reading.req?.destroy();
    }
    reply({ type: 'closed' });
    process.disconnect();
  }
});
// The bench gone (closed, or its process ended) leaves nothing to report to: nothing keeps these streams open then.
process.on('disconnect', () => process.exit(0));
reply({ type: 'ready' });
