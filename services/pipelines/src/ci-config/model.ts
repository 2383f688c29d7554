/** The validated configuration model shared by the validator and the pipeline seeding. */

/** A `needs:` entry. */
export interface Need {
  job: string;
  artifacts: boolean;
  optional: boolean;
}

/** A job after validation, defaults and inheritance (before rules/only/except). */
export interface JobConfig {
  name: string;
  stage: string;
  script: string[];
  beforeScript: string[] | null;
  afterScript: string[] | null;
  image: { name: string; entrypoint?: string[] } | null;
  services: { name: string; alias?: string; entrypoint?: string[]; command?: string[] }[] | null;
  tags: string[] | null;
  when: string;
  startIn: string | null;
  /** Absent, a boolean, or `{exit_codes}`. */
  allowFailure: boolean | { exit_codes: number[] } | null;
  needs: Need[] | null;
  rules: Record<string, unknown>[] | null;
  only: Record<string, unknown> | null;
  except: Record<string, unknown> | null;
  retry: { max: number; when: string[] } | null;
  timeout: string | null;
  artifacts: Record<string, unknown> | null;
  /** The job's own variables. */
  variables: Record<string, string>;
  /** `inherit:variables`: true (all), false (none) or the names to inherit. */
  inheritVariables: boolean | string[];
  dependencies: string[] | null;
  environment: unknown;
  /** `parallel:` as written (an integer or `{matrix}`), null when absent. */
  parallel: unknown;
  /** The job's configuration after includes, extends, references and defaults. */
  raw: Record<string, unknown>;
  /** A trigger job (downstream pipeline): validated and linted, left out of the pipeline's jobs. */
  bridge?: boolean;
}

/** The whole validated configuration. */
export interface ConfigModel {
  stages: string[];
  variables: Record<string, string>;
  workflowRules: Record<string, unknown>[] | null;
  workflowName: string | null;
  jobs: JobConfig[];
  warnings: string[];
}
