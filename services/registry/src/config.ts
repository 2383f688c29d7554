import type { Schema } from '@anvil/config';

/** Env vars the registry service reads beyond the shared `serviceSchema`. */
export const configSchema = {} satisfies Schema;
