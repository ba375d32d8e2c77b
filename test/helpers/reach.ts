import { chmodSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Lets other users walk down to `path`: adds search permission (o+x, not read) to each
 * ancestor directory that lacks it. As root, tests hand work to another user (embedded
 * PostgreSQL runs as `postgres`, the read-only test as `nobody`), and a checkout inside a 0700
 * directory (mktemp -d, a CI clone) would stop them short of the code they must load.
 */
export function letOthersReach(path: string): void {
  let dir = dirname(path);
  for (;;) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}
