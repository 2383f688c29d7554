import type { Readable, Writable } from 'node:stream';
import type { Receipt } from './local-receive';

export interface ObjectInfo {
  key: string;
  size: number;
  lastModified?: Date;
}

/** A stored object opened for sending: its size, and a sender that writes it whole into a stream. */
export interface OpenedObject {
  size: number;
  /** Writes the whole object into `dest` and ends it; rejects when `dest` closes or fails first. Releases the object either way. */
  sendTo(dest: Writable): Promise<void>;
  /** Releases the object without sending it. */
  close(): Promise<void>;
}

/** What `receive` is told about the body it stores. */
export interface ReceiveOptions {
  /** Largest size accepted (FileTooLargeError past it; `Receipt.limit` may lower it while bytes flow). */
  limit: number;
  /** The size the sender declared, when it did. */
  expectedSize: number | null;
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
  /**
   * Receives `body` as the new object `key` (fresh: nobody reads it before `done` resolves), measuring
   * its size, MD5, SHA-1 and SHA-256 on the way, each driver in its fastest way. `done` rejects, with
   * nothing left behind, past the limit (FileTooLargeError), when the body fails or is cancelled, or
   * when storage fails. The object may not be durable yet: it is meant to be moved into place.
   */
  receive(key: string, body: Readable, opts: ReceiveOptions): Receipt;
  /** The object opened for sending (see OpenedObject), or null when it does not exist. */
  open(key: string): Promise<OpenedObject | null>;
  /**
   * Start-up work, once per process before serving: what the store needs to exist (an S3 bucket), and
   * removing what a process that stopped mid-write left behind. A failed clean-up does not fail it.
   */
  prepare(): Promise<void>;
}
