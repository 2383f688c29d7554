import type { Schema } from '@anvil/config';

/** Env vars the work-items service reads beyond the shared `serviceSchema`: none. */
export const configSchema = {} satisfies Schema;
