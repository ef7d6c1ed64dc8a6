import type { Server } from 'socket.io';
import type { TokenPayload, TokenSigner } from '../auth/index.js';
import { AppError, toWireError } from '../kernel/index.js';
import { viewOf, type JobRepository, type JobRunner, type JobView } from '../jobs/index.js';
import type { Logger } from '../kernel/index.js';
import type { CredentialChecks } from '../ownership/index.js';
import { JOBS_COMMANDS } from '../protocol/jobs.js';
import type { JobsCommands, JobState } from '../protocol/wire/jobs.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { socketAuth, type AuthedSocketData } from './auth.js';
import { IdentityBuckets, type CommandLimit } from './command-limits.js';
import { commandsOf } from './commands.js';
import { connectRefusal } from './connect-refusal.js';
import { emitLocal } from './local-emit.js';
import { jobRoom } from './rooms.js';
import { typedNamespaces, type JobsNamespace, type JobsSocket } from './socket-types.js';

const jobNotFound = () => new AppError(ErrorCode.JOB_NOT_FOUND);

/**
 * The outlet of the job runner's changes: every change goes through the namespace (not `.local`), so with the Redis
 * streams adapter it reaches the job's owner on whichever node the job runs and the socket is connected.
 */
export function createJobsPort(io: Server): (view: JobView) => void {
  const { jobs } = typedNamespaces(io);
  return (view) => {
    jobs.to(jobRoom(view.jobId)).emit('job:state', view satisfies JobState);
  };
}

export interface JobsNamespaceDeps {
  signer: TokenSigner;
  checks: CredentialChecks;
  jobs: JobRepository;
  runner: JobRunner;
  logger: Logger;
  /** command budget per job, shared by every socket watching it on this node. */
  commandLimit?: CommandLimit;
}

/**
 * `/jobs`: the owner of one background job per socket (live progress, cancel). The handshake needs the
 * job token `POST /api/materials/:id/math-problems` answered (kind `job`, sub = job id, scope = the owner account);
 * beyond its signature the job must still be that account's and the account active, and a job its owner started
 * refuses tokens signed before the owner ended its sessions (a student's self-study job does not: the student's
 * view must survive the teacher's sign-out) — at the handshake (new and recovered connections) and on every command. The socket gets the job as it is on connect (`job:state`), then every
 * change; `job:cancel` cancels it.
 */
export function registerJobsNamespace(namespace: JobsNamespace, deps: JobsNamespaceDeps): void {
  const { jobs, runner, logger } = deps;
  const commandBuckets = deps.commandLimit ? new IdentityBuckets(deps.commandLimit) : undefined;
  const owned = async (token: TokenPayload) => {
    if (token.scope === undefined) throw jobNotFound();
    const job = await jobs.get(token.sub);
    if (!job || job.accountId !== token.scope) throw jobNotFound();
    if (job.startedBy === 'student') await deps.checks.activeAccount(job.accountId);
    else await deps.checks.accountToken(job.accountId, token);
    return job;
  };
  namespace.use(socketAuth(deps.signer, ['job']));
  namespace.use((socket, next) => {
    owned((socket.data as AuthedSocketData).token).then(
      () => next(),
      (error: unknown) => next(connectRefusal(error)),
    );
  });

  namespace.on('connection', (socket: JobsSocket) => {
    const token = socket.data.token;
    const jobId = token.sub;
    // Join before reading the job: a change racing the read is then seen too (pages keep the newest `updatedAt`).
    void socket.join(jobRoom(jobId));
    if (!socket.recovered) {
      owned(token).then(
        (job) => emitLocal(socket, 'job:state', viewOf(job)),
        (error: unknown) => {
          emitLocal(socket, 'job:error', toWireError(error).body);
          socket.disconnect(true);
        },
      );
    }
    const on = commandsOf<JobsCommands, JobsSocket>(socket, JOBS_COMMANDS, {
      logger,
      ...(commandBuckets ? { shared: { buckets: commandBuckets, identity: () => `job:${jobId}` } } : {}),
    });
    on('job:cancel', async () => {
      await owned(token);
      const job = await runner.cancel(jobId);
      if (!job) throw jobNotFound();
      return { job: viewOf(job) };
    });
  });
}
