/**
 * Background jobs that survive a node restart and can be cancelled: store-backed, leased. A job is one JSON record
 * (kind, owner, params, status queued → running → succeeded | failed | cancelled, checkpoint, progress, result,
 * error) plus an entry in the durable set of unfinished jobs. Every node's JobRunner polls that set, takes a job by its
 * lease (renewed while it runs) and runs its kind's handler with params and checkpoints parsed by the kind's zod
 * schemas; only the lease holder writes the record. A node that dies leaves its lease to expire and another node
 * continues from the last checkpoint. Changes reach the owner on the /jobs namespace.
 */
export { JOB_STATUSES, JobRecord, JobRepository, viewOf, type JobStatus, type JobView } from './job-repository.js';
export { jobKeys } from './job-keys.js';
export { JobRunner, jobHandler, type JobContext, type JobHandler, type JobRunnerOptions, type RegisteredHandler, type RunningJob } from './job-runner.js';
