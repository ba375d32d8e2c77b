import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { FleetReply, FleetRequest, StreamReport } from './protocol.js';

/**
 * The odds streams of bench/streams.ts, read by `processes` child processes
 * (bench/streams/clients.ts), the streams dealt out among them in turn.
 */
export interface Fleet {
  /** Opens one stream per key (a key may repeat: a client holds several streams) and resolves once every stream has answered. */
  open(url: string, apiKeys: readonly string[], marker: string): Promise<void>;
  /** The fewest probe changes any stream has seen, and the streams the other side has ended. */
  progress(): Promise<{ fewestSeen: number; ended: number }>;
  report(): Promise<StreamReport[]>;
  /** Closes every stream and ends the processes. */
  close(): Promise<void>;
}

type Reply<T extends FleetReply['type']> = Extract<FleetReply, { type: T }>;

/** Sends a request and waits for the reply of the type named. */
async function ask<T extends FleetReply['type']>(child: ChildProcess, request: FleetRequest, type: T): Promise<Reply<T>> {
  const answered = new Promise<Reply<T>>((resolve, reject) => {
    const onMessage = (message: FleetReply) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Reply<T>);
    };
    const onExit = (code: number | null) => reject(new Error(`a stream client process exited (code ${code}) before it answered '${request.type}'`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
  child.send(request);
  return answered;
}

export async function startFleet(processes: number): Promise<Fleet> {
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        await once(child, 'exit');
      }),
    );
  };
  try {
    for (let i = 0; i < processes; i += 1) {
      const child = spawn(process.execPath, ['--import', 'tsx', new URL('./clients.ts', import.meta.url).pathname], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      children.push(child);
      const [ready] = (await once(child, 'message')) as [FleetReply];
      if (ready.type !== 'ready') throw new Error(`a stream client process said '${ready.type}' first`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    async open(url, apiKeys, marker) {
      const dealt = children.map((_, c) => apiKeys.filter((__, i) => i % children.length === c));
      const answers = await Promise.all(children.map((child, c) => ask(child, { type: 'open', url, apiKeys: dealt[c] ?? [], marker }, 'opened')));
      const refused = answers.flatMap((answer) => answer.refused);
      if (refused.length > 0) throw new Error(`${refused.length} of ${apiKeys.length} streams were refused, the first: ${refused[0]}`);
    },
    async progress() {
      const answers = await Promise.all(children.map((child) => ask(child, { type: 'progress' }, 'progress')));
      return { fewestSeen: Math.min(...answers.map((a) => a.fewestSeen)), ended: answers.reduce((sum, a) => sum + a.ended, 0) };
    },
    async report() {
      return (await Promise.all(children.map((child) => ask(child, { type: 'report' }, 'report')))).flatMap((answer) => answer.streams);
    },
    async close() {
      await Promise.all(children.map((child) => (child.connected ? ask(child, { type: 'close' }, 'closed').catch(() => undefined) : undefined)));
      await stop();
    },
  };
}
