import type { Column, Errors } from '../domain/fields.ts';
import { MEDIA, type MediaKind } from '../domain/media.ts';
import type { NamedKind, ReferenceData } from '../db/reference-repo.ts';

/** The columns that name reference data, what each names and how an unknown id is refused. */
const NAMING_COLUMNS: Record<string, { kind: NamedKind; refusal: (id: string) => string }> = {
  licence_id: { kind: 'licence', refusal: (id) => `The licence ${id} is not known.` },
  group_id: { kind: 'group', refusal: (id) => `The group ${id} is not a group of this website.` },
  sample_method_id: { kind: 'sample_method', refusal: (id) => `The sample method ${id} is not known.` },
};

/** A planned record (a sample or a medium): its entity, its columns and where to report an unknown id. */
export type NamingRecord = { entity: string; columns: Column; report: (errors: Errors) => void };

/** Planned media of one kind as records to check. */
export const namingMedia = (kind: MediaKind, media: { columns: Column }[], report: (errors: Errors) => void): NamingRecord[] =>
  media.map((medium) => ({ entity: MEDIA[kind].entity, columns: medium.columns, report }));

function namedId(columns: Column, column: string): string | undefined {
  const value = columns[column];
  return value === undefined || value === null ? undefined : String(value);
}

/**
 * Every licence, group and sample method the records of a write name must
 * exist, and a group must be one of the caller's website: all of them are
 * looked up at once.
 */
export async function checkNamedReferences(reference: ReferenceData, websiteId: string, records: NamingRecord[]): Promise<void> {
  const asked: Record<NamedKind, Set<string>> = { licence: new Set(), group: new Set(), sample_method: new Set() };
  for (const record of records) {
    for (const [column, { kind }] of Object.entries(NAMING_COLUMNS)) {
      const id = namedId(record.columns, column);
      if (id !== undefined) asked[kind].add(id);
    }
  }
  if (!asked.licence.size && !asked.group.size && !asked.sample_method.size) return;
  const known = await reference.named(websiteId, { licence: [...asked.licence], group: [...asked.group], sample_method: [...asked.sample_method] });
  for (const record of records) {
    for (const [column, { kind, refusal }] of Object.entries(NAMING_COLUMNS)) {
      const id = namedId(record.columns, column);
      if (id !== undefined && !known[kind].has(id)) record.report({ [`${record.entity}:${column}`]: refusal(id) });
    }
  }
}
