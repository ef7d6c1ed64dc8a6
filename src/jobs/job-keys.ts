import { storeKey as key } from '../store/index.js';

/**
 * The background jobs' store keys: a job's record (kept RETENTION.jobMs after its last write), the lease of the node
 * running it, its cancellation flag, and the list of unfinished jobs every node's runner reads.
 */
export const jobKeys = {
  /** A background job (JSON: kind, owner, params, status, checkpoint, progress, result); RETENTION.jobMs after its last write. */
  job: (id: string) => key('job', id),
  /** The lease of the node running a job; expires when that node stops renewing it, so another node resumes the job. */
  jobLease: (id: string) => key('job', id, 'lease'),
  /** Set when a job's cancellation is asked for (string '1'); the node running it stops at its next check. TTL. */
  jobCancel: (id: string) => key('job', id, 'cancel'),
  /** Jobs not finished yet (sorted set of job ids scored by creation time): what every node's runner looks at; durable. */
  activeJobs: () => key('jobs', 'active'),
};
