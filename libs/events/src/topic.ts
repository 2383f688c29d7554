/**
 * AMQP topic-exchange matching (RabbitMQ semantics): words are separated by `.`, `*` matches
 * exactly one word, `#` matches zero or more words.
 */

const MAX_KEY_BYTES = 255;
const WORD = /^[A-Za-z0-9_-]+$/;

/** True when `routingKey` matches the binding `pattern`. */
export function topicMatches(pattern: string, routingKey: string): boolean {
  return matchWords(pattern.split('.'), 0, routingKey.split('.'), 0);
}

function matchWords(p: string[], i: number, k: string[], j: number): boolean {
  if (i === p.length) return j === k.length;
  if (p[i] === '#') {
    // Collapse consecutive '#': they match what one does.
    if (i + 1 < p.length && p[i + 1] === '#') return matchWords(p, i + 1, k, j);
    for (let n = j; n <= k.length; n++) if (matchWords(p, i + 1, k, n)) return true;
    return false;
  }
  if (j === k.length) return false;
  return (p[i] === '*' || p[i] === k[j]) && matchWords(p, i + 1, k, j + 1);
}

/** Throws unless `type` is a routing key an event may carry: dot-separated words, no wildcards. */
export function assertEventType(type: string): void {
  if (typeof type !== 'string' || Buffer.byteLength(type) > MAX_KEY_BYTES || !type.split('.').every((w) => WORD.test(w))) {
    throw new Error(`invalid event type: ${JSON.stringify(type)} (expected dot-separated words like service.aggregate.verb)`);
  }
}

/** Throws unless `pattern` is a valid binding: words, `*` or `#`, separated by dots. */
export function assertPattern(pattern: string): void {
  if (typeof pattern !== 'string' || Buffer.byteLength(pattern) > MAX_KEY_BYTES || !pattern.split('.').every((w) => w === '*' || w === '#' || WORD.test(w))) {
    throw new Error(`invalid binding pattern: ${JSON.stringify(pattern)}`);
  }
}
