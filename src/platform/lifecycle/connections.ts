import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a connection with no request in flight must have received nothing before it is taken
 * to be idle. A keep-alive client under load sends its next request as soon as it has its answer,
 * though a busy client machine may take a while: closed in between, it would get a reset instead
 * of an answer. One that has sent nothing for this long is not about to.
 */
const QUIET_MS = 500;

/** A server's open connections and the requests on them that have arrived (headers complete) and are not yet answered. */
export interface Connections {
  /** Requests received in full headers and not yet answered. */
  inFlight(): number;
  /**
   * From now on every answer, those already under way included, carries `Connection: close`, so
   * that a keep-alive client is told to go once its answer is complete; and the server's
   * closeIdleConnections() (which Node's server.close() and Fastify's close() call) closes only
   * the quiet connections, as closeQuiet does.
   */
  closeAfterAnswers(): void;
  /**
   * Closes the connections that are quiet (nothing received for a moment, no request in flight):
   * idle ones, and with `halfSent` also those that stalled part-way through a request line or
   * headers (nothing has reached the app, so nothing is owed). A connection with a request in
   * flight is closed by its answer.
   */
  closeQuiet(options: { halfSent: boolean }): void;
}

interface Tracked {
  /** Requests on it received and not yet answered. */
  unanswered: number;
  /** Its bytes received when its last answer was complete (or when it opened): more since then is a request on its way. */
  readAtAnswer: number;
  /** Its bytes received when last looked at, and since when that has not changed. */
  read: number;
  quietSince: number;
}

/**
 * Tracks the connections of `server` for a graceful stop. Node's closeIdleConnections() destroys
 * every connection between two requests at once, one whose next request is already on its way
 * included, and under load its client gets a reset instead of the answer (or the 503) it is owed:
 * once the stop has begun, connections are closed only when they are quiet.
 */
export function trackConnections(server: Server): Connections {
  const open = new Map<Socket, Tracked>();
  const unanswered = new Set<ServerResponse>();
  let closing = false;

  const askToClose = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('connection', 'close');
  };

  server.on('connection', (socket: Socket) => {
    open.set(socket, { unanswered: 0, readAtAnswer: 0, read: 0, quietSince: Date.now() });
    socket.once('close', () => open.delete(socket));
  });
  // Before the app's own listener: an answer it sends at once must already carry Connection: close.
  server.prependListener('request', (request, response: ServerResponse) => {
    const tracked = open.get(request.socket);
    if (tracked) tracked.unanswered += 1;
    unanswered.add(response);
    if (closing) askToClose(response);
    // 'close' fires once, whether the answer was sent or the connection died first.
    response.once('close', () => {
      unanswered.delete(response);
      if (!tracked) return;
      tracked.unanswered -= 1;
      tracked.readAtAnswer = request.socket.bytesRead;
      tracked.read = tracked.readAtAnswer;
      tracked.quietSince = Date.now();
    });
  });

  const closeQuiet = ({ halfSent }: { halfSent: boolean }) => {
    const now = Date.now();
    for (const [socket, tracked] of open) {
      if (tracked.unanswered > 0) continue;
      const read = socket.bytesRead;
      if (read !== tracked.read) {
        tracked.read = read;
        tracked.quietSince = now;
        continue;
      }
      if (now - tracked.quietSince < QUIET_MS) continue;
      if (read === tracked.readAtAnswer || halfSent) socket.destroy();
    }
  };
  return {
    inFlight: () => unanswered.size,
    closeAfterAnswers() {
      closing = true;
      for (const response of unanswered) askToClose(response);
      server.closeIdleConnections = () => closeQuiet({ halfSent: false });
    },
    closeQuiet,
  };
}
