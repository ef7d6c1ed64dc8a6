import { AppError } from '../kernel/index.js';
import { ModelError } from '../llm/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';

/**
 * The round loop every quiz item writer shares (4-choice items in quiz-agent.ts, the other scored types in
 * typed-agent.ts): ask the model, take what passes, ask again for what is still missing, at most `rounds` times. A
 * reply that did not even parse (MODEL_OUTPUT_INVALID after the adapter's own repair turn) is one more failed round;
 * any other model failure passes through. Returns the reasons of everything refused, for the log and the shortfall.
 */
export async function generationRounds<Reply>(options: {
  rounds: number;
  /** Whether any wanted item is still missing: the loop stops as soon as none is. */
  missing: () => boolean;
  /** One model call for this round (its input built from what is still missing). */
  ask: (round: number) => Promise<Reply>;
  /** Takes the items of a reply that pass; each refused one is named by `reject`. */
  take: (reply: Reply, round: number, reject: (reason: string) => void) => void;
}): Promise<string[]> {
  const rejected: string[] = [];
  for (let round = 1; round <= options.rounds && options.missing(); round += 1) {
    let reply: Reply;
    try {
      reply = await options.ask(round);
    } catch (error) {
      if (error instanceof ModelError && error.code === ErrorCode.MODEL_OUTPUT_INVALID) {
        rejected.push(`round ${round}: ${error.message}`);
        continue;
      }
      throw error;
    }
    options.take(reply, round, (reason) => rejected.push(reason));
  }
  return rejected;
}

/**
 * What a writer does with fewer items than wanted: a deterministic model's few items stand (none at all is 422
 * TOO_LITTLE_MATERIAL with `tooLittle`); another model's shortfall is 502 MODEL_OUTPUT_INVALID, retryable, with the
 * refusals as its cause.
 */
export function refuseShortfall(options: { made: number; wanted: number; deterministic: boolean; rejected: readonly string[]; tooLittle: string }): void {
  const { made, wanted, deterministic } = options;
  if (made === 0 && deterministic) throw new AppError(ErrorCode.TOO_LITTLE_MATERIAL, options.tooLittle);
  if (made < wanted && !deterministic) {
    throw new ModelError(ErrorCode.MODEL_OUTPUT_INVALID, `AI 모델이 올바른 퀴즈 문항을 만들지 못했습니다(${wanted}문항 중 ${made}문항). 잠시 후 다시 시도해 주세요.`, {
      cause: new Error(options.rejected.join('\n')),
      retryable: true,
    });
  }
}
