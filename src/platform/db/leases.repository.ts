import type { Kysely } from 'kysely';
import type { Schema } from './schema.js';

/** The named leases (leases): work one node does at a time, held until `expires_at` unless renewed. */
export interface LeasesRepository {
  /**
   * Takes or renews `name` for `holder` until `until`: true when it is free, expired or already
   * this holder's. One statement each way, so two nodes cannot both win.
   */
  take(name: string, holder: string, now: number, until: number): Promise<boolean>;
  /** Gives the lease up, if `holder` holds it: the next node takes it at once rather than at its expiry. */
  release(name: string, holder: string): Promise<void>;
}

export function createLeasesRepository(db: Kysely<Schema>): LeasesRepository {
  return {
    async take(name, holder, now, until) {
      const renewed = await db
        .updateTable('leases')
        .set({ holder, expires_at: until })
        .where('name', '=', name)
        .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<=', now)]))
        .executeTakeFirst();
      if (Number(renewed.numUpdatedRows) === 1) return true;
      const made = await db.insertInto('leases').values({ name, holder, expires_at: until }).onConflict((oc) => oc.column('name').doNothing()).executeTakeFirst();
      return Number(made.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async release(name, holder) {
      await db.updateTable('leases').set({ expires_at: 0 }).where('name', '=', name).where('holder', '=', holder).execute();
    },
  };
}
