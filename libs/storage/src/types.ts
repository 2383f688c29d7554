import type { Readable } from 'node:stream';

export interface ObjectInfo {
  key: string;
  size: number;
  lastModified?: Date;
}

export interface PutOptions {
  contentType?: string;
  fresh?: boolean;
}

/**
 * Streaming object storage. Keys are `/`-separated relative paths (no `..`, no leading `/`); every
 * operation throws InvalidKeyError for a key that breaks the rules (see `validateKey`).
 * No operation holds a whole object in memory.
 */
export interface Storage {
  /**
   * Streams `body` to `key` (replacing it atomically: readers see the old or the new object, never a
   * part). The local driver, with fsync (the default), resolves once the object is on disk. With
   * `fresh`, the caller promises `key` is new, unique and read by nobody before `put` resolves (an
   * upload's own key): the local driver then writes it in place, without a temporary file to rename;
   * a failed put still leaves nothing behind.
   */
  put(key: string, body: Readable, opts?: PutOptions): Promise<{ size: number }>;
  /** A stream of the object, or null when it does not exist. */
  get(key: string): Promise<Readable | null>;
  /** A stream of the object and its size in bytes, or null when it does not exist. */
  read(key: string): Promise<{ body: Readable; size: number } | null>;
  /**
   * Moves an object to another key (replacing what is there); afterwards `from` is gone. The local
   * driver renames (atomic) and, with fsync (the default), resolves once the object's bytes and new
   * name are on disk; S3 copies server-side and deletes the source.
   */
  move(from: string, to: string): Promise<void>;
  /** Size and modification time, or null when the object does not exist. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Deletes one object; no error when it is missing. */
  delete(key: string): Promise<void>;
  /**
   * Deletes one object as far as readers can tell: once it resolves, no `get`, `read`, `head` or open
   * finds it any more; its space may be freed later. No error when it is missing. The local driver
   * renames the file into its temporary directory at once and unlinks it in the background (a large
   * file's unlink is not waited for); S3 deletes it.
   */
  retire(key: string): Promise<void>;
  /** Deletes every object whose key starts with `prefix`; an empty prefix is refused. */
  deletePrefix(prefix: string): Promise<void>;
  /** Every object whose key starts with `prefix` (a plain string prefix, as on S3), in UTF-8 byte order of keys. */
  list(prefix: string): AsyncIterable<ObjectInfo>;
}
