import type { TransferJobKind } from '@anvil/events';

/** Per kind of transfer job: its table, its status column, and the statuses of a job still running. */
export const RUNNING_JOBS: Record<TransferJobKind, { table: string; status: string; running: string[] }> = {
  export: { table: 'project_exports', status: 'job_status', running: ['queued', 'started'] },
  import: { table: 'project_imports', status: 'status', running: ['scheduled', 'started'] },
  relation_import: { table: 'relation_imports', status: 'status', running: ['created', 'started'] },
};
