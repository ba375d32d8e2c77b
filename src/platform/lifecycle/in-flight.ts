import type { Server } from 'node:http';

/** Requests a server has received in full headers and not yet answered. */
export interface InFlightRequests {
  count(): number;
}

export function trackInFlight(server: Server): InFlightRequests {
  let count = 0;
  server.on('request', (_request, response) => {
    count += 1;
    // 'close' fires once, whether the answer was sent or the connection died first.
    response.once('close', () => {
      count -= 1;
    });
  });
  return { count: () => count };
}
