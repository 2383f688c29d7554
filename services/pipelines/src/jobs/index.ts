/**
 * What the rest of the service (runner API, test reports) uses of jobs: the row type, lookups,
 * the runner queue, status transitions with pipeline re-processing, and job variables.
 */
export type { Job, JobRow } from './job-row';
export { seconds } from './job-row';
export { findJob, findJobByTokenDigest, findProjectJob, currentJobsOf } from './job-store';
export { STATUSES, COMPLETED, CANCELABLE, EXECUTING, RETRYABLE, compositeStatus, type Status } from './status';
export { pickPendingJob, enqueueDueJobs, type RunnerMatch } from './queue';
export { transitionJob, applyJobEvent, targetStatus, type JobEvent, type TransitionDetails } from './transitions';
export { processPipeline, type Processed } from './processing';
export { jobVariables, predefinedPipelineVariables, refSlug, type RunnerVariable, type PipelineFacts } from './variables';
export type { Pipeline, PipelineVariable } from '../pipelines/pipeline-row';
export { findPipelineById, projectPath } from '../pipelines/pipeline-store';
