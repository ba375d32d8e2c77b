import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, requestLogger } from '../../src/platform/logging.js';

function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger(
    level,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  let children = 0;
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<typeof child>) => {
    children += 1;
    return child(...args);
  }) as typeof logger.child;
  return { logger, lines, children: () => children };
}

describe('a request logger (decision 0140)', () => {
  it('makes no pino child while the request logs nothing at an enabled level', () => {
    const { logger, lines, children } = capture('warn');
    const log = requestLogger(logger, { request_id: 'r-1' }, {});
    log.info({ detail: 1 }, 'not at this level');
    log.debug('nor this');
    expect(children()).toBe(0);
    expect(lines).toEqual([]);
    expect(log.level).toBe('warn');
  });

  it('logs with the request id once it logs at an enabled level, through one child', async () => {
    const { logger, lines, children } = capture('warn');
    const log = requestLogger(logger, { request_id: 'r-2' }, {});
    log.warn({ detail: 2 }, 'first');
    log.error('second');
    await new Promise((resolve) => setImmediate(resolve));
    expect(children()).toBe(1);
    expect(lines.map((line) => [line.request_id, line.msg])).toEqual([
      ['r-2', 'first'],
      ['r-2', 'second'],
    ]);
    expect(lines[0]?.detail).toBe(2);
  });

  it('still redacts what the app logger redacts', async () => {
    const { logger, lines } = capture('info');
    requestLogger(logger, { request_id: 'r-3' }, {}).info({ headers: { authorization: 'Bearer eyJsecret' } }, 'with a credential');
    await new Promise((resolve) => setImmediate(resolve));
    expect(JSON.stringify(lines)).not.toContain('eyJsecret');
    expect(lines[0]?.request_id).toBe('r-3');
  });

  it('makes the child at once for a route with a log level of its own', () => {
    const { logger, children } = capture('warn');
    const log = requestLogger(logger, { request_id: 'r-4' }, { level: 'debug' });
    expect(children()).toBe(1);
    expect(log.level).toBe('debug');
  });
});
