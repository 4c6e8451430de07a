import { AsyncLocalStorage } from 'node:async_hooks';
import type { Pool, PoolClient } from '@rex/db';
import { MEDIA } from '../domain/media.ts';

/** The sequences a write takes its new records' ids from, in the order of `IdCounts`. */
export const SEQUENCES = [
  'records.samples_id_seq',
  'records.occurrences_id_seq',
  'records.locations_id_seq',
  MEDIA.sample.sequence,
  MEDIA.occurrence.sequence,
  MEDIA.location.sequence,
  'records.occurrence_associations_id_seq',
] as const;

/** How many ids a write needs from each of SEQUENCES. */
export type IdCounts = number[];

const ALLOCATE = {
  name: 'allocate-ids',
  text: `SELECT ${SEQUENCES.map((sequence, i) => `ARRAY(SELECT nextval('${sequence}')::text FROM generate_series(1, $${i + 1}::int)) AS ids${i}`).join(', ')}`,
};

/** Takes `counts` ids from the sequences in one query; the ids of each sequence in ascending order. */
export async function takeIds(db: Pick<Pool, 'query'> | PoolClient, counts: IdCounts): Promise<string[][]> {
  const { rows } = await db.query<Record<string, string[]>>({ ...ALLOCATE, values: counts });
  return SEQUENCES.map((_, i) => rows[0][`ids${i}`]);
}

/** The context of no call (taken as the module loads, before any call is served). */
const outsideCalls = AsyncLocalStorage.snapshot();

type Waiting = { counts: IdCounts; resolve: (ids: string[][]) => void; reject: (error: unknown) => void };

/**
 * Ids for the writes of one pool. A write asks for its ids before it inserts
 * (one round trip to PostgreSQL, then its statement). While one such query is
 * running, the writes that ask meanwhile wait for it to finish and then share
 * the next: under load most writes then save that round trip, and a write
 * that comes alone is not delayed. Each write gets ids of its own, in the
 * order the writes asked; none is lost unless the query fails.
 *
 * The shared query runs outside any one call's scope: a caller that goes away
 * must not cancel the ids of the others.
 */
export class IdAllocation {
  private waiting: Waiting[] = [];
  private running = false;
  private readonly pool: Pick<Pool, 'query'>;

  constructor(pool: Pick<Pool, 'query'>) {
    this.pool = pool;
  }

  take(counts: IdCounts): Promise<string[][]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ counts, resolve, reject });
      if (!this.running) this.next();
    });
  }

  private next(): void {
    const batch = this.waiting;
    if (!batch.length) return;
    this.waiting = [];
    this.running = true;
    const totals = SEQUENCES.map((_, i) => batch.reduce((sum, write) => sum + write.counts[i], 0));
    outsideCalls(() => takeIds(this.pool, totals)).then(
      (ids) => {
        const offsets = SEQUENCES.map(() => 0);
        for (const write of batch) {
          write.resolve(write.counts.map((count, i) => ids[i].slice(offsets[i], (offsets[i] += count))));
        }
      },
      (error: unknown) => {
        for (const write of batch) write.reject(error);
      },
    ).finally(() => {
      this.running = false;
      this.next();
    });
  }
}

const allocations = new WeakMap<object, IdAllocation>();

/** The id allocation shared by every write on `pool`. */
export function idAllocationOf(pool: Pick<Pool, 'query'>): IdAllocation {
  let allocation = allocations.get(pool);
  if (!allocation) allocations.set(pool, (allocation = new IdAllocation(pool)));
  return allocation;
}
