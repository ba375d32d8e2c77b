/**
 * Whether this process is draining: it received SIGTERM and answers /readyz with 503, so that
 * load balancers stop sending it new requests before its listener closes.
 */
export interface Draining {
  readonly active: boolean;
  start(): void;
}

export function createDraining(): Draining {
  let active = false;
  return {
    get active() {
      return active;
    },
    start() {
      active = true;
    },
  };
}
