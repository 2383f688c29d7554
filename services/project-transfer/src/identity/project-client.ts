import { INTERNAL_TOKEN_HEADER } from '@anvil/auth';

/** The project attributes an export or import status record shows (`ProjectIdentity`). */
export interface ProjectIdentity {
  id: number;
  description: string | null;
  name: string;
  name_with_namespace: string;
  path: string;
  path_with_namespace: string;
  created_at: string;
}

/** Reads projects from identity's internal transfer API (`/internal/v1/transfer/projects/:id`). */
export class ProjectClient {
  constructor(
    private readonly baseUrl: string,
    private readonly internalToken: string,
    private readonly timeoutMs = 5000,
  ) {}

  /** The project, or null when identity does not know it. */
  async project(id: number): Promise<ProjectIdentity | null> {
    const res = await fetch(`${this.baseUrl}/internal/v1/transfer/projects/${id}`, {
      headers: { [INTERNAL_TOKEN_HEADER]: this.internalToken },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`identity GET transfer project ${id}: ${res.status}`);
    return (await res.json()) as ProjectIdentity;
  }
}
