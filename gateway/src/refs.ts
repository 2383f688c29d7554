/** `%2F`-encoded refs decode to full paths; malformed encodings name nothing (not found). */
export function decodeRef(seg: string): string | null {
  if (!seg.includes('%')) return seg;
  try {
    return decodeURIComponent(seg);
  } catch {
    return null;
  }
}
