/** Anvil's reference CI runner: GitLab's runner protocol with a shell executor. */
export { loadConfig, type RunnerConfig } from './config';
export { RunnerClient, type JobPayload } from './client';
export { Runner } from './runner';
export { runJob, type JobOutcome } from './job';
export { globRegExp, matchingFiles } from './files';
export { stepScript } from './shell';
