import { type ClientRequest, type IncomingMessage, request } from 'node:http';

/**
 * A Server-Sent Events client for tests: node:http on a socket of its own, and the event-stream
 * format parsed by hand. Not fetch: its connection pool opened a new, empty connection behind each
 * aborted stream, which the server then held open until its request timeout.
 */

export interface SseEvent {
  event: string;
  id: string | undefined;
  data: string;
}

export interface SseStream {
  readonly status: number;
  readonly headers: Headers;
  /** The body of a refused request (an error), or '' for a stream. */
  readonly error: string;
  /** The next event (comments skipped); rejects after `timeoutMs` or when the stream ends first. */
  next(timeoutMs?: number): Promise<SseEvent>;
  /** Every event received so far, and every comment line. */
  readonly events: SseEvent[];
  readonly comments: string[];
  /** Every reconnection time (`retry:`, ms) the server has set, in order. */
  readonly retries: number[];
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

export interface StreamOptions {
  /** The body is not read before this settles: a reader that falls behind, then reads as fast as it can. */
  readAfter?: Promise<unknown>;
}

/** Every event a stream sends until none comes for `quietMs`. */
export async function drain(stream: SseStream, quietMs: number): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for (;;) {
    try {
      out.push(await stream.next(quietMs));
    } catch {
      return out;
    }
  }
}

export async function openStream(url: string, headers: Record<string, string>, options: StreamOptions = {}): Promise<SseStream> {
  const { req, res } = await get(url, headers);
  const status = res.statusCode ?? 0;
  const responseHeaders = headersOf(res);
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  const waiters: Array<() => void> = [];
  let read = 0;
  let done = false;
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };

  if (status < 200 || status > 299 || !(responseHeaders.get('content-type') ?? '').startsWith('text/event-stream')) {
    const error = await textOf(res);
    return { status, headers: responseHeaders, error, events, comments, retries, ended: Promise.resolve(), next: () => Promise.reject(new Error(error)), close: () => {} };
  }

  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      await options.readAfter;
      for await (const chunk of res) {
        buffer += decoder.decode(chunk as Buffer, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          parseBlock(buffer.slice(0, end), events, comments, retries);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
        wake();
      }
    } catch {
      // cut by close()
    } finally {
      done = true;
      wake();
    }
  })();

  return {
    status,
    headers: responseHeaders,
    error: '',
    events,
    comments,
    retries,
    ended,
    async next(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const event = events[read];
        if (event !== undefined) {
          read += 1;
          return event;
        }
        if (done) throw new Error('the stream ended');
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no event within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close() {
      req.destroy();
    },
  };
}

function get(url: string, headers: Record<string, string>): Promise<{ req: ClientRequest; res: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (res) => resolve({ req, res }));
    req.once('error', reject);
    req.end();
  });
}

function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

async function textOf(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseBlock(block: string, events: SseEvent[], comments: string[], retries: number[]): void {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  let fields = 0;
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'event') event = value;
    else if (name === 'id') id = value;
    else if (name === 'data') data.push(value);
    else if (name === 'retry' && /^[0-9]+$/.test(value)) retries.push(Number(value));
    else continue;
    fields += 1;
  }
  // A block of comments only, or of `retry:` only, dispatches no event.
  if (fields > 0 && data.length > 0) events.push({ event, id, data: data.join('\n') });
}
