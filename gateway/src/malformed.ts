/**
 * GitLab answers `400 Bad Request` (plain text), before routing or authentication, to a request that
 * holds a malformed string (Rails' middleware `HandleMalformedStrings`): a path or query parameter
 * whose percent-encoding is broken, or that decodes to invalid UTF-8 or to a NUL byte, or Basic
 * credentials with a NUL byte. Nothing behind the gateway then sees such a string: Postgres refuses
 * NUL in text, which would otherwise surface as a 500.
 */
export function malformedUrl(path: string, query: string): boolean {
  // a name or value of the query cannot end in the middle of an escape or of a character at an `&`
  // or `=`: the whole query decodes exactly when each of its parts does
  return malformedComponent(path) || malformedComponent(query);
}

/** Anything but printable ASCII other than `%` leaves a path or query as it is. */
const NEEDS_DECODING = /[^\x20-\x24\x26-\x7e]/;

/** A percent-encoded string that does not decode, or decodes to NUL. */
function malformedComponent(s: string): boolean {
  if (!NEEDS_DECODING.test(s)) return false;
  let decoded: string;
  try {
    // throws on a broken escape and on bytes that are not UTF-8
    decoded = decodeURIComponent(s);
  } catch {
    return true;
  }
  return decoded.includes('\0');
}

/**
 * Basic credentials that decode to a NUL byte. (NUL cannot reach a raw header value, and bytes that
 * are not UTF-8 reach a lookup as U+FFFD, which matches no one.)
 */
export function malformedCredentials(authorization: string | undefined): boolean {
  if (!authorization || !/^Basic /i.test(authorization)) return false;
  return Buffer.from(authorization.slice(6).trim(), 'base64').includes(0);
}
