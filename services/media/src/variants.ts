import type { Logger } from '@rex/logger';
import { VARIANTS, storedKey, variantKey, type Variant } from './domain/file-types.ts';
import type { Storage } from './storage/storage.ts';

/** What became of a file's variants. */
export type Outcome = 'made' | 'none' | 'later';

/** The longest side, in pixels, of each variant. */
export type VariantSizes = Record<Variant, number>;

/** Image formats libvips reads and writes back in kind; other files get no variants. */
const RESIZABLE = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/tiff', 'image/avif']);

let library: Promise<typeof import('sharp').default> | undefined;

/** libvips, loaded with the first image to make: a start does not pay for it. */
function sharpLibrary(): Promise<typeof import('sharp').default> {
  library ??= import('sharp').then(({ default: sharp }) => {
    // One libvips worker thread and no operation cache: a service making a few
    // small images now and then, not an image server; memory stays flat.
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  // A library that failed to load is tried again with the next image.
  library.catch(() => (library = undefined));
  return library;
}

export const hasVariants = (contentType: string): boolean => RESIZABLE.has(contentType);

/**
 * Makes the `thumb-` and `med-` images of stored files: each as large as its
 * size on its longest side (never enlarged), turned upright by its EXIF
 * orientation, in the original's format, without its metadata. libvips reads
 * the stored file sequentially and shrinks JPEGs while decoding; an image of
 * more than `maxPixels` is not read at all. Files are done one at a time.
 * A file that is not an image, or cannot be read as one, gets no variants
 * (logged); the file itself is kept and served all the same.
 */
export function createVariantMaker(storage: Storage, sizes: VariantSizes, maxPixels: number, logger: Logger) {
  /** 'later' when storage failed rather than the image: the sweep tries again. */
  async function make(name: string, contentType: string): Promise<Outcome> {
    if (!hasVariants(contentType)) return 'none';
    let unreadable: Error | undefined;
    try {
      const sharp = await sharpLibrary();
      const found = await storage.withLocalFile(storedKey(name), async (path) => {
        for (const variant of VARIANTS) {
          const image = sharp(path, { limitInputPixels: maxPixels, sequentialRead: true, failOn: 'error' })
            .autoOrient()
            .resize({ width: sizes[variant], height: sizes[variant], fit: 'inside', withoutEnlargement: true });
          image.once('error', (error: Error) => (unreadable = error));
          await storage.write(variantKey(name, variant), image);
        }
        return true;
      });
      if (found) return 'made';
      logger.warn({ name }, 'no smaller images made: the stored file is missing');
      return 'none';
    } catch (error) {
      await Promise.all(VARIANTS.map((variant) => storage.remove(variantKey(name, variant)))).catch(() => undefined);
      if (unreadable) {
        logger.warn({ err: unreadable.message, name }, 'no smaller images made: the file cannot be read as an image');
        return 'none';
      }
      logger.warn({ err: error, name }, 'making smaller images failed; tried again later');
      return 'later';
    }
  }

  let queue: Promise<unknown> = Promise.resolve();
  return {
    /** Makes the variants of one file after those already asked for; answers what became of them. */
    make(name: string, contentType: string): Promise<Outcome> {
      const done = queue.then(() => make(name, contentType));
      queue = done.catch(() => undefined);
      return done;
    },
  };
}

export type VariantMaker = ReturnType<typeof createVariantMaker>;
