import { invalid } from '@rex/grpc';
import { isRecordId, toJsonValues, type AuthContext__Output } from '@rex/protos';
import type { RecordRead } from '../app/answers.ts';
import { toAttributeDetails, type Values } from '../domain/values.ts';

/** What the generic reads and removal of a kind of record offer (app/record-kinds.ts). */
type RecordReads = {
  get(auth: AuthContext__Output | null, id: string, verbose?: boolean): Promise<RecordRead>;
  list(auth: AuthContext__Output | null, filters: Record<string, string>, limit: number, offset: number): Promise<{ rows: Values[]; more: boolean }>;
  remove(auth: AuthContext__Output | null, id: string, ifMatch?: string[]): Promise<void>;
};

type IdRequest = { auth: AuthContext__Output | null; id: string };

/** The Get, List and Delete methods of a kind of record, the same for every kind; `recordId` checks an id for the others. */
export function recordHandlers(entity: string, records: RecordReads) {
  function recordId(id: string): string {
    if (!isRecordId(id)) throw invalid({ [`${entity}:id`]: 'Must be a positive whole number.' });
    return id;
  }

  return {
    recordId,

    async get(request: IdRequest & { verbose: boolean }) {
      const read = await records.get(request.auth, recordId(request.id), request.verbose);
      return {
        values: toJsonValues(read.values),
        version: read.version,
        attributes: toAttributeDetails(read.attributes),
        ...(read.associations && { associations: read.associations.map((association) => ({ values: toJsonValues(association) })) }),
      };
    },

    async list(request: { auth: AuthContext__Output | null; filters: Record<string, string>; limit: number; offset: number }) {
      const limit = Math.min(Math.max(request.limit || 100, 1), 1000);
      const page = await records.list(request.auth, request.filters, limit, Math.max(request.offset, 0));
      return { rows: page.rows.map((values) => ({ values: toJsonValues(values) })), more: page.more };
    },

    async remove(request: IdRequest & { ifMatch: string[] }) {
      await records.remove(request.auth, recordId(request.id), request.ifMatch);
      return {};
    },
  };
}
