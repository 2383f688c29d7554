/** What GitLab's runner API hands out for one job (the fields this runner reads). */
export interface JobPayload {
  id: number;
  token: string;
  job_info: { name: string; stage: string; project_id: number };
  variables: { key: string; value: string; file?: boolean }[];
  steps: { name: string; script: string[]; timeout: number; when: string; allow_failure: boolean }[];
  artifacts: { name?: string; paths: string[]; when: string; expire_in?: string; artifact_type: string; artifact_format: string }[] | null;
  runner_info: { timeout: number };
}

/** The runner's features, as gitlab-runner reports them in `info.features`. */
const FEATURES = { variables: true, artifacts: true, upload_raw_artifacts: true, multi_build_steps: true, trace_reset: true, trace_size: true, return_exit_code: true, cancelable: true, raw_variables: true };

/** An answer that is neither success nor an expected refusal. */
export class ApiError extends Error {
  constructor(readonly status: number, what: string, body: string) {
    super(`${what}: ${status} ${body.slice(0, 200)}`);
  }
}

/**
 * GitLab's runner API over `fetch` (the requests gitlab-runner makes: `network/gitlab.go`): verify,
 * long-poll for a job, update its state, patch its trace, upload artifacts.
 */
export class RunnerClient {
  private readonly api: string;
  private readonly info: Record<string, unknown>;

  constructor(url: string, private readonly token: string, name: string) {
    this.api = `${url}/api/v4`;
    this.info = { name, version: '1.0.0', platform: process.platform, architecture: process.arch, executor: 'shell', shell: 'bash', features: FEATURES };
  }

  private async json(method: string, path: string, body: unknown, signal?: AbortSignal, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${this.api}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal });
  }

  /** `POST /runners/verify`: the runner's id; throws when the token is refused. */
  async verify(): Promise<number> {
    const r = await this.json('POST', '/runners/verify', { token: this.token, info: this.info });
    const text = await r.text();
    if (r.status !== 200) throw new ApiError(r.status, 'verify', text);
    return (JSON.parse(text) as { id: number }).id;
  }

  /** `POST /jobs/request`: a job, or null (204) with the queue value to send next time. */
  async requestJob(lastUpdate: string | undefined, signal: AbortSignal): Promise<{ job: JobPayload | null; lastUpdate: string | undefined }> {
    const r = await this.json('POST', '/jobs/request', { token: this.token, info: this.info, ...(lastUpdate ? { last_update: lastUpdate } : {}) }, signal, { 'Runner-Token': this.token });
    const text = await r.text();
    const next = r.headers.get('x-gitlab-last-update') ?? undefined;
    if (r.status === 201) return { job: JSON.parse(text) as JobPayload, lastUpdate: next };
    if (r.status === 204) return { job: null, lastUpdate: next };
    throw new ApiError(r.status, 'request job', text);
  }

  /** `PUT /jobs/:id`: the job's status after the update (`Job-Status`), or null when refused. */
  async updateJob(job: JobPayload, state: 'running' | 'success' | 'failed', extra: { exit_code?: number; failure_reason?: string } = {}): Promise<string | null> {
    const r = await this.json('PUT', `/jobs/${job.id}`, { token: job.token, state, info: this.info, ...extra }, undefined, { 'JOB-TOKEN': job.token });
    const text = await r.text();
    if (r.status === 200) return r.headers.get('job-status');
    if (r.status === 403) return null;
    throw new ApiError(r.status, 'update job', text);
  }

  /** `PATCH /jobs/:id/trace` from byte `start`: the answer's status, `Range` end and `Job-Status`. */
  async patchTrace(job: JobPayload, start: number, bytes: Buffer): Promise<{ status: number; end: number | null; jobStatus: string | null }> {
    const r = await fetch(`${this.api}/jobs/${job.id}/trace`, {
      method: 'PATCH',
      headers: { 'content-type': 'text/plain', 'JOB-TOKEN': job.token, 'content-range': `${start}-${start + bytes.length - 1}` },
      body: bytes,
    });
    await r.arrayBuffer();
    const range = /^0-(\d+)$/.exec(r.headers.get('range') ?? '');
    return { status: r.status, end: range ? Number(range[1]) : null, jobStatus: r.headers.get('job-status') };
  }

  /** `POST /jobs/:id/artifacts`: a file of `type` and `format` as multipart field `file`. */
  async uploadArtifact(job: JobPayload, file: Buffer, filename: string, type: string, format: string, expireIn?: string): Promise<void> {
    const form = new FormData();
    form.append('file', new Blob([file]), filename);
    const q = new URLSearchParams({ artifact_type: type, artifact_format: format, ...(expireIn ? { expire_in: expireIn } : {}) });
    const r = await fetch(`${this.api}/jobs/${job.id}/artifacts?${q}`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, body: form });
    const text = await r.text();
    if (r.status !== 201) throw new ApiError(r.status, 'upload artifacts', text);
  }
}
