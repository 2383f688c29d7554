/** Outcomes by request kind and class (`ok`, `5xx`, a 4xx status, `timeout`, `network <code>`). */
export class Tally {
  private readonly byKind = new Map<string, Record<string, number>>();

  count(kind: string, outcome: string): void {
    const row = this.byKind.get(kind) ?? {};
    row[outcome] = (row[outcome] ?? 0) + 1;
    this.byKind.set(kind, row);
  }

  rows(): [string, Record<string, number>][] {
    return [...this.byKind.entries()].sort(([a], [b]) => a.localeCompare(b));
  }

  total(): number {
    let n = 0;
    for (const row of this.byKind.values()) for (const [c, v] of Object.entries(row)) if (!c.startsWith('lost')) n += v;
    return n;
  }

  ok(): number {
    let n = 0;
    for (const row of this.byKind.values()) n += row.ok ?? 0;
    return n;
  }
}
