/** A Server-Sent Events client for tests: fetch, and the event-stream format parsed by hand. */

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
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

export async function openStream(url: string, headers: Record<string, string>): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters: Array<() => void> = [];
  let read = 0;
  let done = false;
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };

  if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const error = await res.text();
    return { status: res.status, headers: res.headers, error, events, comments, ended: Promise.resolve(), next: () => Promise.reject(new Error(error)), close: () => {} };
  }

  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body ?? []) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          parseBlock(buffer.slice(0, end), events, comments);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
        wake();
      }
    } catch {
      // aborted by close()
    } finally {
      done = true;
      wake();
    }
  })();

  return {
    status: res.status,
    headers: res.headers,
    error: '',
    events,
    comments,
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
      abort.abort();
    },
  };
}

function parseBlock(block: string, events: SseEvent[], comments: string[]): void {
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
    else continue;
    fields += 1;
  }
  // A block of comments only, or of `retry:` only, dispatches no event.
  if (fields > 0 && data.length > 0) events.push({ event, id, data: data.join('\n') });
}
