/** Stops the embedded Postgres if global-setup started one. */
export default async function globalTeardown(): Promise<void> {
  const epg = (globalThis as Record<string, unknown>).__ANVIL_EPG__ as { stop(): Promise<void> } | undefined;
  if (epg) await epg.stop();
}
