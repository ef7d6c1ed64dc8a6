/** Background jobs that survive a node restart and can be cancelled (issue 14 §2; exams next): store-backed, leased. */
export { JOB_STATUSES, JobRecord, JobRepository, viewOf, type JobStatus, type JobView } from './job-repository.js';
export { JobRunner, jobHandler, type JobContext, type JobHandler, type JobRunnerOptions, type RegisteredHandler, type RunningJob } from './job-runner.js';
