import type { CompiledJob } from '../../src/ci-config/types';

/** A compiled job with GitLab's defaults, overridden by `over`. */
export function compiledJob(name: string, stage: string, stageIdx: number, over: Partial<CompiledJob> = {}): CompiledJob {
  return {
    name, stage, stageIdx, script: [`echo ${name}`], beforeScript: [], afterScript: [], image: null, services: [], tags: [],
    when: 'on_success', startInSeconds: null, allowFailure: false, allowFailureExitCodes: [], needs: null,
    retry: { max: 0, when: [] }, timeoutSeconds: null, artifacts: null, variables: {}, options: {}, ...over,
  };
}
