/** The messages between bench/streams/fleet.ts and its client processes (bench/streams/clients.ts). */

/** Milliseconds on the machine's monotonic clock: comparable across processes, unlike performance.now(). */
export const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

/** What one stream saw. */
export interface StreamReport {
  /** The answer's status: 200 for a stream. */
  status: number;
  /** A refused stream's body, or why the connection failed. */
  error: string;
  bytes: number;
  /** When each of the probe's changes arrived, in order (ms on the monotonic clock). */
  seen: number[];
  /** The server ended the stream, or the connection failed, before the bench closed it. */
  ended: boolean;
}

export type FleetRequest =
  /** Opens a stream to `url` for each key (one key per stream); `marker` is the bytes that only the probe's changes hold. */
  | { type: 'open'; url: string; apiKeys: string[]; marker: string }
  | { type: 'progress' }
  | { type: 'report' }
  | { type: 'close' };

export type FleetReply =
  | { type: 'ready' }
  /** Every stream has answered; the refused ones' status and body. */
  | { type: 'opened'; refused: string[] }
  /** The fewest probe changes any stream has seen so far, and the streams ended by the other side. */
  | { type: 'progress'; fewestSeen: number; ended: number }
  | { type: 'report'; streams: StreamReport[] }
  | { type: 'closed' };
