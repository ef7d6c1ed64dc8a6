import { Router } from 'express';
import type { LanguageModel } from '../llm/index.js';
import type { Store } from '../store/index.js';
import { appVersion } from '../kernel/index.js';

export interface HealthDeps {
  store: Store;
  model: LanguageModel;
}

/**
 * Liveness (`/healthz`, also naming the model provider and its model per role, so an operator sees what answers)
 * and readiness (`/readyz`: the store answers); `/metrics` is in metrics-router.ts.
 */
export function createHealthRouter({ store, model }: HealthDeps): Router {
  const router = Router();
  const models = { generation: model.modelName('generation'), judge: model.modelName('judge'), embedding: model.modelName('embedding') };

  router.get('/healthz', (_request, response) => {
    response.json({ status: 'ok', store: store.kind, model: model.kind, models, version: appVersion });
  });

  router.get('/readyz', async (_request, response) => {
    try {
      await store.ping();
      response.json({ status: 'ready', store: store.kind, model: model.kind });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      response.status(503).json({ status: 'unavailable', store: store.kind, reason });
    }
  });

  return router;
}
