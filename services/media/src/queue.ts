import { Readable } from 'node:stream';
import type { Pool } from '@rex/db';
import { DomainError, forbidden, grpc, invalid, notFound } from '@rex/grpc';
import type { AuthContext__Output } from '@rex/protos';
import { SNIFF_BYTES, detectType, isQueuedName, queueKey, queuedName, storedKey, type QueueLimits } from './domain/file-types.ts';
import { bytesUploadedLastHour, deleteExpired, deleteForgotten, markForgotten, findFile, insertFile, lockClaimable, lockFiles, markClaimed, releaseClaim, reserveFiles, withTransaction, type FileRow } from './db/files-repo.ts';
import type { Storage } from './storage/storage.ts';

export type UploadHeader = { auth: AuthContext__Output | null; field: string; filename: string };
export type Lifetimes = { queueSeconds: number; reserveSeconds: number; deletedGraceSeconds: number };
/** Bytes one uploader may upload per hour. */
export type Quota = { bytesPerHour: number };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A refusal of one uploaded file, keyed by its form field as the queue's answer is. */
const fileError = (field: string, message: string, httpStatus: number) =>
  new DomainError(grpc.status.INVALID_ARGUMENT, message, [{ field, description: message }], { http_status: String(httpStatus) });
const tooLarge = (field: string) => fileError(field, 'The file size exceeds the maximum allowed.', 413);
const notAllowed = (field: string) => fileError(field, 'The file is not one of the allowed types.', 415);
const overQuota = (field: string, quota: Quota) =>
  fileError(field, `The upload quota (${quota.bytesPerHour} bytes an hour) is used up; try again later.`, 429);

type Who = { websiteId: string; userId: string | null };

function uploader(auth: AuthContext__Output | null): Who {
  if (!auth || auth.websiteId === '0' || !auth.websiteId) throw forbidden('Uploads need an authenticated website.');
  return { websiteId: auth.websiteId, userId: auth.entity === 'ENTITY_USER' && auth.userId !== '0' ? auth.userId : null };
}

/** Why a submission may not claim a queued file, or undefined when it may. */
function refusal(row: FileRow | undefined, who: Who, claimId: string, name: string): string | undefined {
  const missing = `Requested file does not exist in the queue: ${name}`;
  if (!row || row.website_id !== who.websiteId) return missing;
  if (row.user_id && row.user_id !== who.userId) return missing;
  if (row.state === 'claimed' || (row.reserved && row.claim_id !== claimId)) return `Requested file has already been used by another record: ${name}`;
  if (row.expired) return missing;
  return undefined;
}

/** The media queue: uploads, claims by submissions, downloads and the expiry of unclaimed files. */
export function createMediaQueue(db: Pool, storage: Storage, limits: QueueLimits, lifetimes: Lifetimes, quota: Quota) {
  return {
    /** Checks the file's type from its first bytes, then streams it into the queue, counting its size. */
    async upload(header: UploadHeader, data: AsyncIterable<Buffer>) {
      const who = uploader(header.auth);
      const field = header.field || 'file';
      // The file may be as large as the limit, and as what is left of the uploader's hourly quota.
      const allowance = quota.bytesPerHour - (await bytesUploadedLastHour(db, who.websiteId, who.userId));
      if (allowance <= 0) throw overQuota(field, quota);
      const refuseSize = () => (size > limits.maxUploadSize ? tooLarge(field) : overQuota(field, quota));
      const maxSize = Math.min(limits.maxUploadSize, allowance);
      const chunks = data[Symbol.asyncIterator]();
      const head: Buffer[] = [];
      let size = 0;
      while (size < SNIFF_BYTES) {
        const next = await chunks.next();
        if (next.done) break;
        head.push(next.value);
        size += next.value.length;
        if (size > maxSize) throw refuseSize();
      }
      const first = Buffer.concat(head);
      const type = await detectType(first.subarray(0, SNIFF_BYTES), limits.allowedTypes);
      if (!type) throw notAllowed(field);
      const name = queuedName(type.extension);
      async function* content() {
        yield first;
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
          size += next.value.length;
          if (size > maxSize) throw refuseSize();
          yield next.value;
        }
      }
      await storage.write(queueKey(name), Readable.from(content()));
      try {
        await insertFile(
          db,
          { name, ...who, field, originalName: header.filename, contentType: type.contentType, mediaType: type.mediaType, size },
          lifetimes.queueSeconds,
        );
      } catch (error) {
        await storage.remove(queueKey(name));
        throw error;
      }
      return { name, contentType: type.contentType, mediaType: type.mediaType, size };
    },

    /** Holds the named files for one submission; every name must be claimable, or none is held. */
    async reserve(auth: AuthContext__Output | null, claimId: string, names: string[]) {
      if (!UUID.test(claimId)) throw invalid({ claim_id: 'Must be a UUID.' });
      const who = uploader(auth);
      const unique = [...new Set(names)];
      return withTransaction(db, async (client) => {
        const rows = new Map((await lockFiles(client, unique.filter(isQueuedName))).map((row) => [row.name, row]));
        const refused: Record<string, string> = {};
        for (const name of unique) {
          const reason = refusal(rows.get(name), who, claimId, name);
          if (reason) refused[name] = reason;
        }
        if (Object.keys(refused).length) return { files: [], refused };
        await reserveFiles(client, unique, claimId, lifetimes);
        const files = unique.map((name) => {
          const row = rows.get(name)!;
          return { name, mediaType: row.media_type, contentType: row.content_type, size: row.size };
        });
        return { files, refused };
      });
    },

    /**
     * The submission was saved: its files are claimed and moved into storage.
     * Answers the names now claimed for it; a queued file that has lost its
     * content is left out (and logged by the caller's retries).
     */
    async confirm(claimId: string, names: string[]) {
      if (!UUID.test(claimId)) throw invalid({ claim_id: 'Must be a UUID.' });
      return withTransaction(db, async (client) => {
        const rows = await lockClaimable(client, claimId, names.filter(isQueuedName));
        const moved: string[] = [];
        for (const row of rows.filter((candidate) => candidate.state === 'queued')) {
          if (!(await storage.exists(queueKey(row.name))) && !(await storage.exists(storedKey(row.name)))) continue;
          await storage.move(queueKey(row.name), storedKey(row.name));
          moved.push(row.name);
        }
        if (moved.length) await markClaimed(client, moved, claimId);
        const claimed = [...rows.filter((row) => row.state === 'claimed').map((row) => row.name), ...moved];
        return { files: moved.length, names: claimed };
      });
    },

    async release(claimId: string) {
      if (!UUID.test(claimId)) throw invalid({ claim_id: 'Must be a UUID.' });
      return releaseClaim(db, claimId);
    },

    /** A queued or stored file, to callers of the website it was uploaded to. */
    /**
     * A file: a still-queued upload, only to the website and user that
     * uploaded it; or the stored file of a medium, which records has already
     * found the caller may read (of: 'medium').
     */
    async download(auth: AuthContext__Output | null, name: string, of: 'upload' | 'medium') {
      const who = uploader(auth);
      const row = isQueuedName(name) ? await findFile(db, name) : undefined;
      if (!row || row.website_id !== who.websiteId) throw notFound();
      if (row.forgotten) throw notFound();
      if (of === 'upload' && (row.state !== 'queued' || row.expired || row.user_id !== who.userId)) throw notFound();
      // A medium's file is claimed, or being confirmed for the claim that saved the medium.
      if (of === 'medium' && row.state !== 'claimed' && row.claim_id === null) throw notFound();
      // A confirmation may be moving the file into storage at this moment: look in both places.
      const content = row.state === 'queued' ? ((await storage.read(queueKey(name))) ?? (await storage.read(storedKey(name)))) : await storage.read(storedKey(name));
      if (!content) throw notFound();
      return { contentType: row.content_type, size: Number(row.size), content };
    },

    /** The media naming these files were deleted: they are no longer served, and go after the grace period. */
    async forget(names: string[]) {
      const forgotten = await markForgotten(db, names.filter(isQueuedName));
      return { files: forgotten.length, names: forgotten };
    },

    /** Deletes expired uploads nobody claimed, and the files of deleted media past their grace period; returns how many. */
    async sweep(batch = 100): Promise<number> {
      let total = 0;
      for (;;) {
        const deleted = await deleteExpired(db, batch, (names) => Promise.all(names.map((name) => storage.remove(queueKey(name)))).then(() => undefined));
        total += deleted;
        if (deleted < batch) break;
      }
      for (;;) {
        const deleted = await deleteForgotten(db, lifetimes.deletedGraceSeconds, batch, (names) =>
          // A file forgotten while its confirmation was under way may still be in the queue.
          Promise.all(names.flatMap((name) => [storage.remove(storedKey(name)), storage.remove(queueKey(name))])).then(() => undefined),
        );
        total += deleted;
        if (deleted < batch) return total;
      }
    },
  };
}

export type MediaQueue = ReturnType<typeof createMediaQueue>;
