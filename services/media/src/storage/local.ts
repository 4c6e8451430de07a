import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, type Storage } from './storage.ts';

const statOf = (path: string) =>
  stat(path).then(
    (found) => (found.isFile() ? { size: found.size, modified: found.mtime } : undefined),
    () => undefined,
  );

/** Files on a local volume (a PersistentVolume in Kubernetes). Writes land in a temporary file, then are renamed. */
export function localStorage(root: string): Storage {
  const pathOf = (key: string) => join(root, checkKey(key));
  const exists = async (path: string) => (await statOf(path)) !== undefined;
  return {
    async write(key, content) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const partial = `${path}.${randomBytes(6).toString('hex')}.part`;
      try {
        await pipeline(content, createWriteStream(partial, { flags: 'wx' }));
        await rename(partial, path);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async read(key, range) {
      const path = pathOf(key);
      if (!(await exists(path))) return undefined;
      return createReadStream(path, range);
    },
    stat: (key) => statOf(pathOf(key)),
    async withLocalFile(key, use) {
      const path = pathOf(key);
      if (!(await exists(path))) return undefined;
      return use(path);
    },
    async move(from, to) {
      const target = pathOf(to);
      await mkdir(dirname(target), { recursive: true });
      try {
        await rename(pathOf(from), target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && (await exists(target))) return;
        throw error;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    exists: (key) => exists(pathOf(key)),
  };
}
