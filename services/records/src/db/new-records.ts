import type { Pool, PoolClient } from '@rex/db';
import { withTransaction } from '@rex/db';
import type { AssociationPlan } from '../domain/associations.ts';
import type { AttributeValue } from '../domain/attributes.ts';
import type { Column } from '../domain/fields.ts';
import { isLink } from '../domain/external-media.ts';
import { MEDIA, type MediaKind } from '../domain/media.ts';
import { takeIds, takeSharedIds } from './id-allocation.ts';
import { insertAttributeValues } from './attribute-values-repo.ts';
import { insertIdempotencyKey } from './idempotency-repo.ts';
import { insertOutboxRows } from './outbox-repo.ts';
import { StatementNames } from './statement-names.ts';
import { writeShared } from './shared-writes.ts';
import { iso } from './sql.ts';

/** A medium's columns, including the path and media type of its claimed file or link. */
export type NewMedium = { columns: Column };
/** A new occurrence; `sample` places it in an existing sample other than the write's parent. */
export type NewOccurrence = {
  columns: Column;
  attributes: AttributeValue[];
  media?: NewMedium[];
  sample?: { sampleId: string; surveyId: string };
  /** Checked to name an existing own occurrence or another new one of the write (see associations.ts). */
  associations?: AssociationPlan[];
};
export type NewSample = { columns: Column; attributes: AttributeValue[]; occurrences: NewOccurrence[]; samples: NewSample[]; media?: NewMedium[] };
export type NewLocation = { columns: Column; attributes: AttributeValue[]; media: NewMedium[] };
/** A medium added on its own to an existing record. */
export type NewStandaloneMedium = { kind: MediaKind; parentId: string; surveyId: string | null; columns: Column };
export type SavedSample = { id: string; occurrences: string[]; samples: SavedSample[]; media?: string[]; occurrenceMedia?: Record<string, string[]> };
/** What a write created, as kept for idempotent replays. */
export type SavedTree = {
  samples: SavedSample[];
  occurrences: string[];
  occurrenceMedia: Record<string, string[]>;
  locations: string[];
  locationMedia: Record<string, string[]>;
  media: string[];
};
export type Writer = { websiteId: string; userId: string | null; createdById: string };

/** The version (xmin) rows written by the current transaction carry: its 32-bit transaction id. */
const CURRENT_VERSION = `(pg_current_xact_id()::text::numeric % 4294967296)::bigint::text`;

/** Trees of a shape clients send again and again are inserted by a named statement, parsed and planned once per connection. */
const TREE_STATEMENTS = new StatementNames('tree', 100);

/** Above this many parameters a write is split into several statements (PostgreSQL allows 65 535). */
const MAX_PARAMS = 20_000;

/** Builds INSERT statements with data-modifying CTEs, splitting them when they grow large. */
class StatementBuilder {
  readonly statements: { text: string; values: unknown[] }[] = [];
  private ctes: string[] = [];
  private values: unknown[] = [];
  private attributes = { sample: [] as [string, AttributeValue][], occurrence: [] as [string, AttributeValue][], location: [] as [string, AttributeValue][] };
  private outbox: { entity: string; id: string; surveyId: string | null }[] = [];

  param(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }

  insert(table: string, columns: Column): void {
    const names = Object.keys(columns);
    this.ctes.push(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((name) => this.param(columns[name])).join(', ')})`);
  }

  attribute(entity: 'sample' | 'occurrence' | 'location', ownerId: string, values: AttributeValue[]): void {
    for (const value of values) this.attributes[entity].push([ownerId, value]);
  }

  event(entity: string, id: string, surveyId: string | null): void {
    this.outbox.push({ entity, id, surveyId });
  }

  /** Closes the statement being built if it has grown past the limit (between whole records only). */
  maybeFlush(writer: Writer): void {
    if (this.values.length > MAX_PARAMS) this.flush(writer);
  }

  /** Records the submission under the client's idempotency key, in the same statement as the records. */
  idempotency(writer: Writer, key: string, requestHash: string, saved: unknown): void {
    this.ctes.push(
      insertIdempotencyKey(
        `VALUES (${this.param(writer.websiteId)}, ${this.param(writer.createdById)}, ${this.param(key)}, ${this.param(requestHash)},
                 jsonb_build_object('tree', ${this.param(JSON.stringify(saved))}::jsonb, 'stamp', ${iso('now()')}, 'version', ${CURRENT_VERSION}))`,
      ),
    );
  }

  flush(writer: Writer): void {
    for (const entity of ['sample', 'occurrence', 'location'] as const) {
      const rows = this.attributes[entity];
      if (!rows.length) continue;
      const column = (pick: (v: AttributeValue) => unknown, cast: string) => this.param(rows.map(([, v]) => pick(v)), cast);
      this.ctes.push(
        insertAttributeValues(
          entity,
          `SELECT * FROM unnest(${this.param(rows.map(([id]) => id), '::bigint[]')}, ${column((v) => v.attributeId, '::bigint[]')},
           ${column((v) => v.textValue, '::text[]')}, ${column((v) => v.intValue, '::bigint[]')}, ${column((v) => v.floatValue, '::float8[]')},
           ${column((v) => v.dateStart, '::date[]')}, ${column((v) => v.dateEnd, '::date[]')}, ${column((v) => v.dateType, '::text[]')})`,
        ),
      );
    }
    if (this.outbox.length) {
      this.ctes.push(
        insertOutboxRows(
          `SELECT e, id, 'create', ${this.param(writer.websiteId, '::bigint')}, s, ${this.param(writer.userId, '::bigint')}
             FROM unnest(${this.param(this.outbox.map((e) => e.entity), '::text[]')}, ${this.param(this.outbox.map((e) => e.id), '::bigint[]')},
                         ${this.param(this.outbox.map((e) => e.surveyId), '::bigint[]')}) AS t(e, id, s)`,
        ),
      );
    }
    if (this.ctes.length) {
      const text = `WITH ${this.ctes.map((cte, i) => `w${i} AS (${cte})`).join(',\n')}
        SELECT ${iso('now()')} AS stamp, ${CURRENT_VERSION} AS version`;
      this.statements.push({ text, values: this.values });
    }
    this.ctes = [];
    this.values = [];
    this.attributes = { sample: [], occurrence: [], location: [] };
    this.outbox = [];
  }
}

type Counts = { samples: number; occurrences: number; locations: number; associations: number } & Record<MediaKind, number>;

function countOccurrences(occurrences: NewOccurrence[], into: Counts): void {
  into.occurrences += occurrences.length;
  for (const occurrence of occurrences) {
    into.occurrence += occurrence.media?.length ?? 0;
    into.associations += occurrence.associations?.length ?? 0;
  }
}

function countTree(samples: NewSample[], into: Counts): Counts {
  for (const sample of samples) {
    into.samples += 1;
    into.sample += sample.media?.length ?? 0;
    countOccurrences(sample.occurrences, into);
    countTree(sample.samples, into);
  }
  return into;
}

type Queryable = Pick<Pool, 'query'> | PoolClient;

/**
 * Inserts new samples (with their occurrences, attribute values, child
 * samples and outbox events) under `parent`, and new occurrences directly
 * under an existing sample, and new locations (with their attribute values
 * and media). Ids are taken from the sequences first (together with those
 * of the writes running at the same time, see id-allocation.ts), so the
 * whole tree usually goes in as one statement: one round trip, atomic by
 * itself. A large tree is split into several statements in one transaction
 * (or in the caller's, when `db` is a client inside one).
 */
export async function insertNewRecords(
  target: { pool: Pool } | { transaction: PoolClient },
  input: {
    samples: NewSample[];
    occurrences: NewOccurrence[];
    parent: { sampleId: string; surveyId: string } | null;
    locations?: NewLocation[];
    media?: NewStandaloneMedium[];
    /** The media claim the new media rows belong to (see media-claims.ts). */
    claimId?: string;
  },
  writer: Writer,
  idempotency?: { key: string; requestHash: string },
): Promise<SavedTree & { stamp: string; version: string }> {
  const totals = countTree(input.samples, { samples: 0, occurrences: 0, locations: 0, associations: 0, sample: 0, occurrence: 0, location: 0 });
  countOccurrences(input.occurrences, totals);
  totals.locations += input.locations?.length ?? 0;
  totals.location += input.locations?.reduce((total, location) => total + location.media.length, 0) ?? 0;
  for (const medium of input.media ?? []) totals[medium.kind] += 1;
  const db: Queryable = 'pool' in target ? target.pool : target.transaction;
  const counts = [totals.samples, totals.occurrences, totals.locations, totals.sample, totals.occurrence, totals.location, totals.associations];
  // Inside a transaction the ids are its own client's to take; otherwise writes running at once share one query for them.
  const allocated = 'pool' in target ? await takeSharedIds(target.pool, counts) : await takeIds(target.transaction, counts);
  const [sampleIds, occurrenceIds, locationIds, sampleMediaIds, occurrenceMediaIds, locationMediaIds, associationIds] = allocated.map((ids) => ids.values());
  const mediaIds: Record<MediaKind, Iterator<string>> = { sample: sampleMediaIds, occurrence: occurrenceMediaIds, location: locationMediaIds };
  const builder = new StatementBuilder();
  const owner = { website_id: writer.websiteId, created_by_id: writer.createdById, updated_by_id: writer.createdById };

  const addMedium = (kind: MediaKind, parentId: string, surveyId: string | null, medium: NewMedium): string => {
    const id = mediaIds[kind].next().value as string;
    builder.insert(MEDIA[kind].table, { ...medium.columns, ...owner, id, [MEDIA[kind].parentColumn]: parentId });
    // A link is not a file of the media service: nothing to claim.
    if (input.claimId && !isLink(String(medium.columns.path))) builder.insert('records.media_claims', { path: medium.columns.path, claim_id: input.claimId });
    builder.event(MEDIA[kind].entity, id, surveyId);
    return id;
  };

  const occurrenceMedia: Record<string, string[]> = {};
  // Associations go in once every new occurrence has its id, as they may point at any of them.
  const associating: { fromId: string; surveyId: string; plans: AssociationPlan[] }[] = [];
  const idsByKey = new Map<string, string>();
  const addOccurrences = (occurrences: NewOccurrence[], parentSampleId?: string, parentSurveyId?: string): string[] =>
    occurrences.map((occurrence) => {
      const sampleId = occurrence.sample?.sampleId ?? parentSampleId!;
      const surveyId = occurrence.sample?.surveyId ?? parentSurveyId!;
      const id = occurrenceIds.next().value as string;
      builder.insert('records.occurrences', { ...occurrence.columns, ...owner, id, sample_id: sampleId });
      builder.attribute('occurrence', id, occurrence.attributes);
      builder.event('occurrence', id, surveyId);
      if (typeof occurrence.columns.external_key === 'string') idsByKey.set(occurrence.columns.external_key, id);
      if (occurrence.associations?.length) associating.push({ fromId: id, surveyId, plans: occurrence.associations });
      if (occurrence.media?.length) occurrenceMedia[id] = occurrence.media.map((medium) => addMedium('occurrence', id, surveyId, medium));
      builder.maybeFlush(writer);
      return id;
    });

  const addSample = (sample: NewSample, parentId: string | null): SavedSample => {
    const id = sampleIds.next().value as string;
    const surveyId = String(sample.columns.survey_id);
    builder.insert('records.samples', { ...sample.columns, ...owner, id, parent_id: parentId });
    builder.attribute('sample', id, sample.attributes);
    builder.event('sample', id, surveyId);
    const media = (sample.media ?? []).map((medium) => addMedium('sample', id, surveyId, medium));
    builder.maybeFlush(writer);
    const saved: SavedSample = { id, occurrences: addOccurrences(sample.occurrences, id, surveyId), samples: sample.samples.map((child) => addSample(child, id)) };
    if (media.length) saved.media = media;
    const mediaOfOccurrences = Object.fromEntries(saved.occurrences.filter((occurrence) => occurrenceMedia[occurrence]).map((occurrence) => [occurrence, occurrenceMedia[occurrence]]));
    if (Object.keys(mediaOfOccurrences).length) saved.occurrenceMedia = mediaOfOccurrences;
    return saved;
  };

  const locationMedia: Record<string, string[]> = {};
  const addLocation = (location: NewLocation): string => {
    const id = locationIds.next().value as string;
    builder.insert('records.locations', { ...location.columns, ...owner, id });
    builder.attribute('location', id, location.attributes);
    builder.event('location', id, null);
    if (location.media.length) locationMedia[id] = location.media.map((medium) => addMedium('location', id, null, medium));
    builder.maybeFlush(writer);
    return id;
  };

  const occurrences = addOccurrences(input.occurrences, input.parent?.sampleId, input.parent?.surveyId);
  const samples = input.samples.map((sample) => addSample(sample, input.parent?.sampleId ?? null));
  const locations = (input.locations ?? []).map(addLocation);
  const media = (input.media ?? []).map((medium) => addMedium(medium.kind, medium.parentId, medium.surveyId, medium));
  for (const { fromId, surveyId, plans } of associating) {
    for (const plan of plans) {
      const id = associationIds.next().value as string;
      const toId = plan.toId ?? idsByKey.get(plan.toKey!)!;
      builder.insert('records.occurrence_associations', {
        id,
        from_occurrence_id: fromId,
        to_occurrence_id: toId,
        association_type_id: plan.typeId,
        comment: plan.comment,
        ...owner,
      });
      builder.event('occurrence_association', id, surveyId);
    }
    builder.maybeFlush(writer);
  }
  const tree: SavedTree = { samples, occurrences, occurrenceMedia, locations, locationMedia, media };
  if (idempotency) builder.idempotency(writer, idempotency.key, idempotency.requestHash, tree);
  builder.flush(writer);

  // Each text is looked up once: a text's first sighting is what names it on its second.
  const statements = builder.statements.map((statement) => ({ ...statement, name: TREE_STATEMENTS.nameOf(statement.text) }));
  const run = async (client: Queryable) => {
    let last = { stamp: '', version: '' };
    for (const statement of statements) last = (await client.query<{ stamp: string; version: string }>(statement)).rows[0];
    return last;
  };
  const [only] = statements;
  // A tree of a shape seen before shares its round trip and transaction with trees of that shape written at the same time.
  if ('pool' in target && statements.length === 1 && only.name) {
    const [stamp, version] = await writeShared(target.pool, { ...only, name: only.name });
    return { ...tree, stamp: stamp!, version: version! };
  }
  const { stamp, version } = 'pool' in target && statements.length > 1 ? await withTransaction(target.pool, run) : await run(db);
  return { ...tree, stamp, version };
}
