import { withTransaction, type Pool, type PoolClient } from '@rex/db';
import { forbidden, invalid } from '@rex/grpc';
import type { AuthContext__Output } from '@rex/protos';
import type { RecordEntity } from '../domain/attributes.ts';
import { readFilters, type Errors, type FilterKind } from '../domain/fields.ts';
import type { Values } from '../domain/values.ts';
import type { StoredAttributeValue } from '../db/attribute-values-repo.ts';
import { writeOutbox, type OutboxEvent } from '../db/outbox-repo.ts';
import { NOT_A_USER, caller, checkOwner, checkVersion, type Caller } from './access.ts';
import { attributeDetailsForResponse, attributeValuesForResponse, type RecordRead } from './answers.ts';

// Reading, listing and removing records: the same for every kind of record, told by its RecordKind
// what differs (its table's queries, who may read it, which columns are fields of the API).

/** A stored record as read for an answer: its columns, version and custom attribute values. */
export type ReadRow = Record<string, unknown> & { version: string; attribute_values: StoredAttributeValue[] | null };

/** What a lock for a change must give for the owner and version checks. */
export type LockedRow = { website_id: string; created_by_id: string; deleted: boolean | string; version: string };

export type ListQuery = { userId: string; websiteId: string | null; filters: Record<string, string>; limit: number; offset: number };

export type RecordKind<Row extends ReadRow, Locked extends LockedRow> = {
  entity: RecordEntity;
  /** Columns of a read row that are not fields of the API. */
  hidden: ReadonlySet<string>;
  /** Fields made from the row rather than read from one column (a sample's vague date). */
  madeFields?: (row: Row) => Values;
  find(db: Pool, id: string): Promise<Row | undefined>;
  /** Throws (404, 403) unless the caller may read the record; by default only its creator may. */
  checkReadable?: (row: Row | undefined, who: Caller) => void;
  /** With `?verbose`, what the answer holds beside the values in detail (an occurrence's associations). */
  verboseExtras?: (db: Pool, id: string) => Promise<Partial<RecordRead>>;
  filters: Record<string, FilterKind>;
  /** Whether a caller of the user scope lists its records of every website rather than of the one it signed in to. */
  listsEveryWebsiteForUserScope: boolean;
  list(db: Pool, query: ListQuery): Promise<Row[]>;
  /** The stored record locked for a change; undefined when there is none. */
  lock(client: PoolClient, id: string): Promise<Locked | undefined>;
  /** Marks the locked record deleted, with what goes with it; the events of everything deleted. */
  remove(client: PoolClient, locked: Locked, id: string, who: Caller): Promise<OutboxEvent[]>;
};

/** The generic reads, list and removal of one kind of record. */
export function recordsOfKind<Row extends ReadRow, Locked extends LockedRow>(db: Pool, kind: RecordKind<Row, Locked>) {
  /** The record's fields, without its custom attribute values. A row is a plain object of pg's: its keys are its columns. */
  function fieldValues(row: Row): Values {
    const values: Values = {};
    for (const key in row) {
      if (key === 'attribute_values' || key === 'version' || kind.hidden.has(key)) continue;
      const value = row[key];
      values[key] = value === null ? null : typeof value === 'string' ? value : String(value);
    }
    return kind.madeFields ? Object.assign(values, kind.madeFields(row)) : values;
  }

  /** The record as the API answers it: its fields and its custom attribute values. */
  const answerValues = (row: Row): Values => Object.assign(fieldValues(row), attributeValuesForResponse(kind.entity, row.attribute_values ?? []));

  const checkReadable = kind.checkReadable ?? ((row: Row | undefined, who: Caller) => checkOwner(row as unknown as LockedRow | undefined, who));

  /** Locks the record for a change (PUT, DELETE) by its creator holding its current version. */
  async function lockForChange(client: PoolClient, id: string, who: Caller, action: 'PUT' | 'DELETE', ifMatch: string[]): Promise<Locked> {
    const locked = await kind.lock(client, id);
    checkOwner(locked, who, action);
    checkVersion(locked!.version, ifMatch);
    return locked!;
  }

  return {
    answerValues,
    lockForChange,

    /** `verbose` answers the custom attribute values in detail, apart from the other values. */
    async get(auth: AuthContext__Output | null, id: string, verbose = false): Promise<RecordRead> {
      const who = caller(auth);
      const row = await kind.find(db, id);
      checkReadable(row, who);
      if (!verbose) return { values: answerValues(row!), version: row!.version, attributes: {} };
      return {
        values: fieldValues(row!),
        version: row!.version,
        attributes: attributeDetailsForResponse(kind.entity, row!.attribute_values ?? []),
        ...(await kind.verboseExtras?.(db, id)),
      };
    },

    /** The caller's own records, filtered by equality on fields: one page, and whether more follow. */
    async list(auth: AuthContext__Output | null, filters: Record<string, string>, limit: number, offset: number): Promise<{ rows: Values[]; more: boolean }> {
      const who = caller(auth);
      if (!who.userId) throw forbidden(NOT_A_USER);
      const errors: Errors = {};
      const known = readFilters(kind.entity, filters, kind.filters, errors);
      if (Object.keys(errors).length) throw invalid(errors);
      const websiteId = kind.listsEveryWebsiteForUserScope && who.scope === 'SCOPE_USER' ? null : who.websiteId;
      const rows = await kind.list(db, { userId: who.userId, websiteId, filters: known, limit, offset });
      return { rows: rows.slice(0, limit).map(answerValues), more: rows.length > limit };
    },

    async remove(auth: AuthContext__Output | null, id: string, ifMatch: string[] = []): Promise<void> {
      const who = caller(auth);
      await withTransaction(db, async (client) => {
        const locked = await lockForChange(client, id, who, 'DELETE', ifMatch);
        await writeOutbox(client, await kind.remove(client, locked, id, who));
      });
    },
  };
}
