import type { Readable } from 'node:stream';

/**
 * Where media files are kept. Keys are relative paths such as
 * `queue/26/11/22/<id>.jpg`; a file becomes visible under its key only once
 * it has been written completely.
 */
export interface Storage {
  write(key: string, content: Readable): Promise<void>;
  read(key: string): Promise<Readable | undefined>;
  /** Moves a file; succeeds without change when it is already at `to`. */
  move(from: string, to: string): Promise<void>;
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

/** Keys are built by the service itself; this guards against a mistake ever escaping the store. */
export function checkKey(key: string): string {
  if (!/^[a-z]+(\/[A-Za-z0-9._-]+)+$/.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`bad storage key ${key}`);
  }
  return key;
}
