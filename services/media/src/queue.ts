import { Readable } from 'node:stream';
import type { Pool } from '@rex/db';
import { DomainError, forbidden, grpc, invalid, notFound, type ErrorReason } from '@rex/grpc';
import type { AuthContext__Output } from '@rex/protos';
import { resolveRange, etagOf, type RangeAsked } from './domain/byte-range.ts';
import { SNIFF_BYTES, VARIANTS, detectType, isQueuedName, queueKey, queuedName, storedKey, variantKey, type QueueLimits, type Variant } from './domain/file-types.ts';
import { bytesUploadedLastHour, deleteExpired, deleteForgotten, markForgotten, markVariants, findFile, insertFile, lockClaimable, lockFiles, markClaimed, releaseClaim, reserveFiles, variantsDue, withTransaction, type FileRow } from './db/files-repo.ts';
import type { Storage } from './storage/storage.ts';
import type { VariantMaker } from './variants.ts';

export type UploadHeader = { auth: AuthContext__Output | null; field: string; filename: string };
export type Lifetimes = { queueSeconds: number; reserveSeconds: number; deletedGraceSeconds: number };
/** Bytes one uploader may upload per hour. */
export type Quota = { bytesPerHour: number };
/**
 * Which file a download may serve: a queued upload to its uploader, a
 * medium's file to a caller records let read it, or either to anyone who
 * has its name (when public files are on).
 */
export type DownloadOf = 'upload' | 'medium' | 'public-upload' | 'public-medium';
export type DownloadOptions = { variant?: Variant; range?: RangeAsked; rangeIfEtag?: string; headOnly?: boolean };
/** Seconds a claimed file waits before the sweep makes its variants (the confirmation makes them first). */
const VARIANTS_DUE_AFTER_S = 60;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A refusal of one uploaded file, keyed by its form field as the queue's answer is. */
const fileError = (field: string, message: string, reason: ErrorReason) =>
  new DomainError(grpc.status.INVALID_ARGUMENT, message, [{ field, description: message }], {}, reason);
const tooLarge = (field: string) => fileError(field, 'The file size exceeds the maximum allowed.', 'FILE_TOO_LARGE');
const notAllowed = (field: string) => fileError(field, 'The file is not one of the allowed types.', 'FILE_TYPE_NOT_ALLOWED');
const overQuota = (field: string, quota: Quota) =>
  fileError(field, `The upload quota (${quota.bytesPerHour} bytes an hour) is used up; try again later.`, 'UPLOAD_QUOTA_USED');

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
export function createMediaQueue(
  db: Pool,
  storage: Storage,
  limits: QueueLimits,
  lifetimes: Lifetimes,
  quota: Quota,
  variants: VariantMaker,
  { publicFiles }: { publicFiles: boolean },
) {
  let backfilling = false;
  // Bytes of uploads still arriving, per uploader: uploads sent side by side share one allowance
  // (the database only counts finished ones).
  const arriving = new Map<string, number>();
  const addArriving = (key: string, bytes: number) => {
    const total = (arriving.get(key) ?? 0) + bytes;
    if (total > 0) arriving.set(key, total);
    else arriving.delete(key);
  };
  async function makeVariants(name: string, contentType: string): Promise<void> {
    const outcome = await variants.make(name, contentType);
    if (outcome !== 'later') await markVariants(db, name, outcome);
  }

  /** The storage keys a file served as `of` may be found under, in order. */
  function locate(row: FileRow, of: DownloadOf, variant: Variant | undefined): string[] {
    if (variant) return row.state === 'claimed' && of !== 'upload' && of !== 'public-upload' ? [variantKey(row.name, variant)] : [];
    // A confirmation may be moving the file into storage at this moment: look in both places.
    return row.state === 'queued' ? [queueKey(row.name), storedKey(row.name)] : [storedKey(row.name)];
  }

  return {
    /** Checks the file's type from its first bytes, then streams it into the queue, counting its size. */
    async upload(header: UploadHeader, data: AsyncIterable<Buffer>) {
      const who = uploader(header.auth);
      const field = header.field || 'file';
      // The file may be as large as the limit, and as what is left of the uploader's hourly quota
      // once the uploads finished in the last hour and those arriving beside it are counted.
      const key = `${who.websiteId}:${who.userId ?? ''}`;
      const uploaded = await bytesUploadedLastHour(db, who.websiteId, who.userId);
      if (uploaded + (arriving.get(key) ?? 0) >= quota.bytesPerHour) throw overQuota(field, quota);
      let size = 0;
      const take = (chunk: Buffer) => {
        size += chunk.length;
        addArriving(key, chunk.length);
        if (size > limits.maxUploadSize) throw tooLarge(field);
        if (uploaded + arriving.get(key)! > quota.bytesPerHour) throw overQuota(field, quota);
      };
      try {
        const chunks = data[Symbol.asyncIterator]();
        const head: Buffer[] = [];
        while (size < SNIFF_BYTES) {
          const next = await chunks.next();
          if (next.done) break;
          head.push(next.value);
          take(next.value);
        }
        const first = Buffer.concat(head);
        const type = await detectType(first.subarray(0, SNIFF_BYTES), limits.allowedTypes);
        if (!type) throw notAllowed(field);
        const name = queuedName(type.extension);
        async function* content() {
          yield first;
          for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
            take(next.value);
            yield next.value;
          }
        }
        await storage.write(queueKey(name), Readable.from(content()));
        try {
          // Uploads that finished meanwhile count too: the allowance is checked again, now that
          // the file is whole, against the database and the uploads still arriving.
          if ((await bytesUploadedLastHour(db, who.websiteId, who.userId)) + arriving.get(key)! > quota.bytesPerHour) throw overQuota(field, quota);
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
      } finally {
        addArriving(key, -size);
      }
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
      const answer = await withTransaction(db, async (client) => {
        const rows = await lockClaimable(client, claimId, names.filter(isQueuedName));
        const moved: { name: string; contentType: string }[] = [];
        for (const row of rows.filter((candidate) => candidate.state === 'queued')) {
          if (!(await storage.exists(queueKey(row.name))) && !(await storage.exists(storedKey(row.name)))) continue;
          await storage.move(queueKey(row.name), storedKey(row.name));
          moved.push({ name: row.name, contentType: row.content_type });
        }
        if (moved.length) await markClaimed(client, moved.map((file) => file.name), claimId);
        const claimed = [...rows.filter((row) => row.state === 'claimed').map((row) => row.name), ...moved.map((file) => file.name)];
        return { files: moved.length, names: claimed, moved };
      });
      // The smaller images are made after the answer; the sweep makes any a stop or a storage failure left out.
      for (const file of answer.moved) makeVariants(file.name, file.contentType).catch(() => undefined);
      return { files: answer.files, names: answer.names };
    },

    async release(claimId: string) {
      if (!UUID.test(claimId)) throw invalid({ claim_id: 'Must be a UUID.' });
      return releaseClaim(db, claimId);
    },

    /**
     * A file: a still-queued upload, only to the website and user that
     * uploaded it; the stored file of a medium, which records has already
     * found the caller may read (of: 'medium'); or, when public files are on,
     * a queued upload or a medium's file to anyone who names it. A variant
     * (`thumb`, `med`) of a stored image is served as its file is. The head
     * says what is served; `content` is absent for head-only calls and
     * ranges outside the file.
     */
    async download(auth: AuthContext__Output | null, name: string, of: DownloadOf, options: DownloadOptions = {}) {
      const isPublic = of === 'public-upload' || of === 'public-medium';
      if (isPublic && !publicFiles) throw notFound();
      const who = isPublic ? undefined : uploader(auth);
      const row = isQueuedName(name) ? await findFile(db, name) : undefined;
      if (!row || row.forgotten) throw notFound();
      if (who && row.website_id !== who.websiteId) throw notFound();
      const queuedUpload = row.state === 'queued' && !row.expired;
      if (of === 'upload' && (!queuedUpload || row.user_id !== who!.userId)) throw notFound();
      if (of === 'public-upload' && !queuedUpload) throw notFound();
      // A medium's file is claimed, or being confirmed for the claim that saved the medium.
      if ((of === 'medium' || of === 'public-medium') && row.state !== 'claimed' && row.claim_id === null) throw notFound();
      for (const key of locate(row, of, options.variant)) {
        const found = await storage.stat(key);
        if (!found) continue;
        const etag = etagOf(key, found.size, found.modified);
        const wanted = options.range && (!options.rangeIfEtag || options.rangeIfEtag === etag) ? resolveRange(options.range, found.size) : undefined;
        const span = wanted === 'unsatisfiable' ? undefined : wanted;
        const head = {
          contentType: row.content_type,
          size: span ? span.end - span.start + 1 : wanted === 'unsatisfiable' ? 0 : found.size,
          totalSize: found.size,
          etag,
          partial: span !== undefined,
          first: span?.start ?? 0,
          unsatisfiable: wanted === 'unsatisfiable',
        };
        if (options.headOnly || head.unsatisfiable) return { head };
        const content = await storage.read(key, span);
        if (content) return { head, content };
      }
      throw notFound();
    },

    /** The media naming these files were deleted: they are no longer served, and go after the grace period. */
    async forget(names: string[]) {
      const forgotten = await markForgotten(db, names.filter(isQueuedName));
      return { files: forgotten.length, names: forgotten };
    },

    /**
     * Deletes expired uploads nobody claimed, and the files of deleted media
     * past their grace period (returns how many); then makes the variants
     * that stored images still lack.
     */
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
          Promise.all(
            names.flatMap((name) => [storage.remove(storedKey(name)), storage.remove(queueKey(name)), ...VARIANTS.map((variant) => storage.remove(variantKey(name, variant)))]),
          ).then(() => undefined),
        );
        total += deleted;
        if (deleted < batch) break;
      }
      // Sweeps may overlap when images are slow to make: one works through the due ones.
      if (!backfilling) {
        backfilling = true;
        try {
          for (const file of await variantsDue(db, VARIANTS_DUE_AFTER_S, batch)) await makeVariants(file.name, file.content_type);
        } finally {
          backfilling = false;
        }
      }
      return total;
    },
  };
}

export type MediaQueue = ReturnType<typeof createMediaQueue>;
