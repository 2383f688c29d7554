/** A log destination that keeps what is written in memory (for tests and diagnostics): `lines()` are the JSON lines, parsed. */
export function memoryDestination(): { stream: { write(s: string): void }; lines(): Record<string, unknown>[]; text(): string } {
  let text = '';
  return {
    stream: { write: (s: string) => void (text += s) },
    lines: () => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>),
    text: () => text,
  };
}
