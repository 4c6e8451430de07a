import type { Readable } from 'node:stream';

/**
 * Where media files are kept. Keys are relative paths such as
 * `queue/26/11/22/<id>.jpg`; a file becomes visible under its key only once
 * it has been written completely.
 */
export interface Storage {
  write(key: string, content: Readable): Promise<void>;
  /** The file's bytes, or only `range` of them (`end` included). */
  read(key: string, range?: ByteSpan): Promise<Readable | undefined>;
  /** The file's size and when it was written, or undefined when there is no such file. */
  stat(key: string): Promise<FileStat | undefined>;
  /**
   * Runs `use` with the file at a path on this machine (a local file as it
   * is; an object copied to a temporary file, removed afterwards); undefined
   * when there is no such file.
   */
  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T | undefined>;
  /** Moves a file; succeeds without change when it is already at `to`. */
  move(from: string, to: string): Promise<void>;
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

export type FileStat = { size: number; modified: Date };

/** Bytes start..end of a file, both included. */
export type ByteSpan = { start: number; end: number };

/** Keys are built by the service itself; this guards against a mistake ever escaping the store. */
export function checkKey(key: string): string {
  if (!/^[a-z]+(\/[A-Za-z0-9._-]+)+$/.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`bad storage key ${key}`);
  }
  return key;
}
