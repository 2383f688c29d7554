/**
 * What the CI configuration compiler (src/ci-config/) hands to pipeline creation: a `.gitlab-ci.yml`
 * with `include: local`, `extends`, `!reference`, `default`, `variables`, `workflow:rules`, job
 * `rules` and `only`/`except` resolved for one ref, as GitLab's Gitlab::Ci::Config and
 * Gitlab::Ci::Pipeline::Seed produce it. See ../shared/reference/ci-config.md.
 */

/** When a job runs, after rules/only/except have been applied for the pipeline's ref. */
export type JobWhen = 'on_success' | 'on_failure' | 'always' | 'manual' | 'delayed';

/** One job of the compiled pipeline, in stage order then file order. */
export interface CompiledJob {
  name: string;
  stage: string;
  /** Stage position (0-based) in `stages`. */
  stageIdx: number;
  script: string[];
  beforeScript: string[];
  afterScript: string[];
  image: { name: string; entrypoint?: string[] } | null;
  services: { name: string; alias?: string; entrypoint?: string[]; command?: string[] }[];
  tags: string[];
  when: JobWhen;
  /** Seconds, for `when: delayed` (`start_in` parsed with GitLab's duration rules). */
  startInSeconds: number | null;
  /** `allow_failure: true|false` or `allow_failure: {exit_codes}`; manual jobs default to true. */
  allowFailure: boolean;
  allowFailureExitCodes: number[];
  /** `needs:` job names (null when the key is absent: stage order applies). */
  needs: { job: string; artifacts: boolean; optional: boolean }[] | null;
  retry: { max: number; when: string[] };
  /** Seconds (`timeout:`), null for the project default. */
  timeoutSeconds: number | null;
  artifacts: {
    paths: string[];
    expireIn: string | null;
    when: 'on_success' | 'on_failure' | 'always';
    reports: { junit: string[] };
  } | null;
  /** The job's own variables merged over the global ones (names to values). */
  variables: Record<string, string>;
  /** The job's configuration as GitLab's lint `merged_yaml`/`jobs` report it. */
  options: Record<string, unknown>;
}

/** What compiling the configuration for one ref gives. */
export type CompileResult =
  | {
      ok: true;
      stages: string[];
      jobs: CompiledJob[];
      /** Global `variables:` after workflow rules' variables. */
      variables: Record<string, string>;
      /** The pipeline's name from `workflow:name`, variables expanded (null without one). */
      name?: string | null;
      /** The configuration after includes and extends, as lint's `merged_yaml`. */
      mergedYaml: string;
      warnings: string[];
    }
  /** `filtered` is set when `workflow:rules` exclude the pipeline ("Pipeline filtered out by workflow rules."). */
  | { ok: false; errors: string[]; warnings: string[]; filtered?: boolean };

/** What the compiler needs to know about the pipeline being built. */
export interface CompileContext {
  /** Branch (or tag) name. */
  ref: string;
  sha: string;
  /** `push`, `web`, `api`, `trigger`, `schedule`, `merge_request_event`, `parent_pipeline`. */
  source: string;
  defaultBranch: string | null;
  /** Predefined CI variables plus the pipeline's own (`variables` of POST /pipeline), by name. */
  variables: Record<string, string>;
  /** True when `ref` is a tag (`only: [tags]`); a branch otherwise. */
  tag?: boolean;
  /** The project's full path (`group/project`), for `only: [ref@group/project]` and lint's `includes`. */
  projectPath?: string;
  /** The project's web URL, for the `blob`/`raw` links of lint's `includes`. */
  projectWebUrl?: string;
  /** Reads a file of the same commit for `include: local` (null when absent). */
  readLocal(path: string): Promise<string | null>;
}
