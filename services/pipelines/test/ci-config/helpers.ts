import { compileCiConfig, CompileContext, CompiledJob, CompileResult } from '../../src/ci-config';

/** A compile context on branch `main` pushed, with local files served from `files`. */
export function context(overrides: Partial<CompileContext> = {}, files: Record<string, string> = {}): CompileContext {
  return {
    ref: 'main',
    sha: 'a'.repeat(40),
    source: 'push',
    defaultBranch: 'main',
    variables: { CI_COMMIT_BRANCH: 'main', CI_COMMIT_REF_NAME: 'main', CI_PIPELINE_SOURCE: 'push' },
    readLocal: async (path) => (Object.prototype.hasOwnProperty.call(files, path) ? files[path] : null),
    ...overrides,
  };
}

/** Compiles and expects success. */
export async function compileOk(yaml: string, ctx: CompileContext = context()): Promise<Extract<CompileResult, { ok: true }>> {
  const result = await compileCiConfig(yaml, ctx);
  if (!result.ok) throw new Error(`expected a valid configuration, got ${JSON.stringify(result.errors)}`);
  return result;
}

/** Compiles and returns the errors (empty when valid). */
export async function compileErrors(yaml: string, ctx: CompileContext = context()): Promise<string[]> {
  const result = await compileCiConfig(yaml, ctx);
  return result.ok ? [] : result.errors;
}

/** The compiled job named `name`. */
export function job(result: { jobs: CompiledJob[] }, name: string): CompiledJob {
  const found = result.jobs.find((j) => j.name === name);
  if (!found) throw new Error(`no job ${name} in ${result.jobs.map((j) => j.name).join(', ')}`);
  return found;
}
