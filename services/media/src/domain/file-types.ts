import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { DEFAULT_MAX_UPLOAD_SIZE } from '@rex/rest-config';

/** Types the warehouse has always accepted (`upload_file_type`). */
export const DEFAULT_ALLOWED_TYPES = ['jpg', 'gif', 'png', 'jpeg', 'pdf', 'mp3', 'wav'];
/** What file-type needs to recognise any format it knows. */
export const SNIFF_BYTES = 4100;

const SAME_TYPE: Record<string, string> = { jpeg: 'jpg', tif: 'tiff', mpeg: 'mp3' };
const canonical = (extension: string) => {
  const lower = extension.trim().toLowerCase().replace(/^\./, '');
  return SAME_TYPE[lower] ?? lower;
};

export type QueueLimits = { maxUploadSize: number; allowedTypes: Set<string> };

export function queueLimits(options: { max_upload_size?: number; allowed_file_types?: string[] } | undefined): QueueLimits {
  return {
    maxUploadSize: options?.max_upload_size ?? DEFAULT_MAX_UPLOAD_SIZE,
    allowedTypes: new Set((options?.allowed_file_types ?? DEFAULT_ALLOWED_TYPES).map(canonical)),
  };
}

export type DetectedType = { extension: string; contentType: string; mediaType: string };

/** The file's type from its first bytes, whatever its name or declared type says; undefined when unknown or not allowed. */
export async function detectType(head: Uint8Array, allowed: Set<string>): Promise<DetectedType | undefined> {
  const found = await fileTypeFromBuffer(head);
  if (!found || !allowed.has(canonical(found.ext))) return undefined;
  return { extension: found.ext, contentType: found.mime, mediaType: mediaTypeOf(found.mime) };
}

/** The warehouse's media type terms: audio is `Audio:Local`, everything else `Image:Local`. */
export const mediaTypeOf = (contentType: string): string => (contentType.startsWith('audio/') ? 'Audio:Local' : 'Image:Local');

/**
 * A new queued name: three two-digit folders from the upload date (so no
 * folder grows without bound), a random id and the detected extension.
 */
export function queuedName(extension: string, now = new Date()): string {
  const two = (value: number) => String(value).padStart(2, '0');
  const folders = [two(now.getUTCFullYear() % 100), two(now.getUTCMonth() + 1), two(now.getUTCDate())];
  return `${folders.join('/')}/${randomBytes(12).toString('hex')}.${extension}`;
}

export const isQueuedName = (name: string): boolean => /^\d{2}\/\d{2}\/\d{2}\/[0-9a-f]{24}\.[a-z0-9]{1,8}$/.test(name);

export const queueKey = (name: string) => `queue/${name}`;
export const storedKey = (name: string) => `files/${name}`;

/** The smaller images made of a stored image. */
export const VARIANTS = ['thumb', 'med'] as const;
export type Variant = (typeof VARIANTS)[number];

/** A variant is kept as the warehouse keeps it: `thumb-26/11/22/<id>.jpg` beside `26/11/22/<id>.jpg`. */
export const variantKey = (name: string, variant: Variant) => `files/${variant}-${name}`;
