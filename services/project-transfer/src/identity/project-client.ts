import { INTERNAL_TOKEN_HEADER, type ProjectScope } from '@anvil/auth';
import { HttpError } from '@anvil/http';

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

  /** Creates the project an import fills, as the importer; identity's refusal is thrown as the HttpError it answered. */
  async createProject(input: { user_id: number; path: string; name?: string; namespace?: string; description?: string; visibility?: string; overwrite?: boolean }): Promise<ProjectIdentity> {
    const res = await fetch(`${this.baseUrl}/internal/v1/transfer/projects`, {
      method: 'POST',
      headers: { [INTERNAL_TOKEN_HEADER]: this.internalToken, 'content-type': 'application/json' },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const body = await res.json();
    if (res.status === 201) return body as ProjectIdentity;
    if (res.status >= 400 && res.status < 500) throw new HttpError(res.status, body);
    throw new Error(`identity POST transfer project: ${res.status}`);
  }

  /** This instance's user ids by lower-cased e-mail address. */
  async usersByEmail(emails: string[]): Promise<Record<string, number>> {
    if (!emails.length) return {};
    const res = await fetch(`${this.baseUrl}/internal/v1/transfer/users/by-email`, {
      method: 'POST',
      headers: { [INTERNAL_TOKEN_HEADER]: this.internalToken, 'content-type': 'application/json' },
      body: JSON.stringify({ emails }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) throw new Error(`identity POST users by e-mail: ${res.status}`);
    return (await res.json()) as Record<string, number>;
  }

  /** The project at `ref` (id or full path) with `userId`'s access to it, or null when identity does not know it. */
  async resolve(ref: string, userId: number): Promise<ProjectScope | null> {
    const res = await fetch(`${this.baseUrl}/internal/v1/projects/resolve?ref=${encodeURIComponent(ref)}&user_id=${userId}`, {
      headers: { [INTERNAL_TOKEN_HEADER]: this.internalToken },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`identity GET project resolve: ${res.status}`);
    return (await res.json()) as ProjectScope;
  }
}
