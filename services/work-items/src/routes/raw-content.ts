/** Percent-escapes every character `unsafe` matches, as UTF-8 bytes (Rails' `ContentDisposition#percent_escape`). */
function percentEscape(s: string, unsafe: RegExp): string {
  return s.replace(unsafe, (c) => [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
}

/**
 * `Content-Disposition: inline` naming a blob as GitLab's `send_git_blob` does
 * (`ActionDispatch::Http::ContentDisposition.format`): the base name, escaped for both forms.
 */
export function inlineDisposition(path: string): string {
  const name = path.split('/').pop() ?? path;
  const ascii = percentEscape(name.normalize('NFKD').replace(/[^\x00-\x7F]/g, '?'), /[^ A-Za-z0-9!#$+.^_`|~-]/g);
  const utf8 = percentEscape(name, /[^A-Za-z0-9!#$&+.^_`|~-]/gu);
  return `inline; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}
