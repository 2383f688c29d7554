import type { CompiledJob } from '../ci-config/types';
import { FAILURE_REASONS } from '../runners/failure-reasons';
import { repoUrl, type JobSpec } from '../runners/job-spec';

type Options = {
  script?: string[];
  before_script?: string[];
  after_script?: string[];
  image?: CompiledJob['image'];
  services?: CompiledJob['services'];
  artifacts?: CompiledJob['artifacts'];
};

function steps(o: Options, timeout: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [{ name: 'script', script: [...(o.before_script ?? []), ...(o.script ?? [])], timeout, when: 'on_success', allow_failure: false }];
  if (o.after_script?.length) out.push({ name: 'after_script', script: o.after_script, timeout, when: 'always', allow_failure: true });
  return out;
}

/** `artifacts:` as runners receive it: the archive entry (when there are paths), then one entry per report. */
function artifacts(a: Options['artifacts']): Record<string, unknown>[] | null {
  if (!a) return null;
  const expire = a.expireIn ?? undefined;
  const out: Record<string, unknown>[] = [];
  if (a.paths.length) out.push(compact({ paths: a.paths, when: a.when, expire_in: expire, artifact_type: 'archive', artifact_format: 'zip' }));
  if (a.reports.junit.length) out.push(compact({ name: 'junit.xml.gz', paths: a.reports.junit, when: 'always', expire_in: expire, artifact_type: 'junit', artifact_format: 'gzip' }));
  return out;
}

function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null));
}

function gitInfo(s: JobSpec): Record<string, unknown> {
  const { ref, tag, sha, before_sha, id } = s.pipeline;
  const refspecs = [`+refs/pipelines/${id}:refs/pipelines/${id}`];
  if (s.gitDepth > 0) refspecs.push(tag ? `+refs/tags/${ref}:refs/tags/${ref}` : `+refs/heads/${ref}:refs/remotes/origin/${ref}`);
  else refspecs.push('+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*');
  return { repo_url: repoUrl(s.baseUrl, s.projectPath, s.token), ref, sha, before_sha, ref_type: tag ? 'tag' : 'branch', refspecs, depth: s.gitDepth };
}

/** GitLab's `Entities::Ci::JobRequest::Response`: the job payload a runner receives (reference/runner.md §3.1). */
export function toJobRequest(s: JobSpec): Record<string, unknown> {
  const o = s.job.options as Options;
  const queued = s.job.queued_at ? (Date.now() - s.job.queued_at.getTime()) / 1000 : 0;
  return {
    id: s.job.id,
    token: s.token,
    allow_git_fetch: true,
    job_info: {
      id: s.job.id,
      name: s.job.name,
      stage: s.job.stage,
      project_id: s.job.project_id,
      project_name: s.projectPath.split('/').pop(),
      time_in_queue_seconds: Math.max(0, Math.round(queued)),
      project_jobs_running_on_instance_runners_count: s.runningOnInstanceRunners < 0 ? '+Inf' : String(s.runningOnInstanceRunners),
    },
    git_info: gitInfo(s),
    runner_info: { timeout: s.timeout, runner_session_url: null },
    variables: s.variables,
    steps: steps(o, s.timeout),
    hooks: [],
    image: o.image ? { name: o.image.name, entrypoint: o.image.entrypoint ?? null, ports: [] } : null,
    services: (o.services ?? []).map((x) => ({ name: x.name, entrypoint: x.entrypoint ?? null, ports: [], alias: x.alias ?? null, command: x.command ?? null, variables: [] })),
    artifacts: artifacts(o.artifacts),
    cache: [],
    credentials: [],
    features: { trace_sections: true, failure_reasons: FAILURE_REASONS },
    dependencies: s.dependencies.map((d) => ({ id: d.id, name: d.name, token: s.token, ...(d.artifactsFile ? { artifacts_file: d.artifactsFile } : {}) })),
  };
}
