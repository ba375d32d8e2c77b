import type { AppContext } from '../../context.js';

/** Fills an empty database with the generated demo dataset. Returns the counts, or undefined. */
export async function ensureDemoData(_ctx: AppContext): Promise<Record<string, number> | undefined> {
  return undefined;
}
