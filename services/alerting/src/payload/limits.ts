import type { Readable } from 'node:stream';
import { hasMalformedString } from '@anvil/http';
import { NotifyRefusal } from './refusal';

/** GitLab's payload limits for alert requests (`Gitlab::Utils::DeepSize` in the notify services). */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;
export const MAX_PAYLOAD_DEPTH = 100;

/**
 * Reads a request body of at most `MAX_PAYLOAD_BYTES`; a longer one is refused (400) without
 * reading it when its declared length says so, else as soon as it passes the limit. The stream is
 * left open (paused) either way, so the caller decides what happens to the rest; a body that breaks
 * off is refused too.
 */
export function readLimitedBody(stream: Readable, declaredBytes: number | null = null): Promise<Buffer> {
  if (declaredBytes !== null && declaredBytes > MAX_PAYLOAD_BYTES) return Promise.reject(new NotifyRefusal(400));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (fn: () => void) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError);
      fn();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_PAYLOAD_BYTES) return void chunks.push(chunk);
      stream.pause();
      settle(() => reject(new NotifyRefusal(400)));
    };
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks, size)));
    const onError = () => settle(() => reject(new NotifyRefusal(400)));
    stream.on('data', onData).once('end', onEnd).once('error', onError);
  });
}

/** The deepest nesting of arrays and objects in JSON text (strings skipped), counted before it is parsed. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) max = Math.max(max, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/**
 * The JSON object of a notify body: deeper than `MAX_PAYLOAD_DEPTH`, not JSON, not an object, or
 * holding a string Postgres cannot store (NUL, a lone surrogate) → 400. Nothing is parsed when the
 * depth is refused.
 */
export function parseNotifyBody(body: Buffer): Record<string, unknown> {
  const text = body.toString('utf8');
  if (jsonDepth(text) > MAX_PAYLOAD_DEPTH) throw new NotifyRefusal(400);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new NotifyRefusal(400);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || hasMalformedString(value)) throw new NotifyRefusal(400);
  return value as Record<string, unknown>;
}
