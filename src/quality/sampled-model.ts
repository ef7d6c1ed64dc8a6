import { currentBillTo, type GenerateObjectRequest, type LanguageModel, type ModelRequestBase, type TextStream } from '../llm/index.js';
import type { QualitySampler } from './quality-sampler.js';

/**
 * Wraps the model so a sample of agents' finished calls is offered to the quality console: the object
 * of a `generateObject`, the whole text of a `streamText` its consumer read to the end. The call itself is untouched:
 * its answer, errors, timing and stream are the inner model's; the sampler works in the background. Embeddings are
 * never sampled, nor the critic's own calls (QualitySampler.rateOf).
 */
export function sampleModel(model: LanguageModel, sampler: QualitySampler): LanguageModel {
  if (!sampler.enabled) return model;
  const attribution = (request: ModelRequestBase) => ({
    accountId: request.attribution?.accountId ?? currentBillTo(),
    materialId: request.attribution?.materialId,
    sessionId: request.attribution?.sessionId,
  });
  const offer = (request: ModelRequestBase, output: string | object, who: ReturnType<typeof attribution>) =>
    sampler.offer({ task: request.task, system: request.system, prompt: request.prompt, input: request.input, output, ...who });

  return {
    kind: model.kind,
    capabilities: model.capabilities,
    modelName: (role) => model.modelName(role),

    async generateObject<T>(request: GenerateObjectRequest<T>) {
      const sampled = sampler.wants(request.task);
      const who = sampled ? attribution(request) : undefined;
      const result = await model.generateObject(request);
      if (who !== undefined && typeof result.object === 'object' && result.object !== null) offer(request, result.object, who);
      return result;
    },

    streamText(request: ModelRequestBase): TextStream {
      const inner = model.streamText(request);
      if (!sampler.wants(request.task)) return inner;
      // The billing context is read now: the consumer may iterate outside it.
      const who = attribution(request);
      return {
        result: inner.result,
        async *[Symbol.asyncIterator]() {
          const parts: string[] = [];
          for await (const delta of inner) {
            parts.push(delta);
            yield delta;
          }
          // Only a stream read to its end is a finished output.
          offer(request, parts.join(''), who);
        },
      };
    },

    embed: (texts, options) => model.embed(texts, options),
  };
}
