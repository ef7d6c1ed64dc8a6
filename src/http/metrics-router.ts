import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import express, { Router, type Request } from 'express';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import type { Metrics } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { errorMiddleware } from './error-middleware.js';
import { securityHeaders } from './security-headers.js';

export interface MetricsAccess {
  metrics: Metrics;
  /** METRICS_TOKEN: when set, every `/metrics` request must carry it as a bearer token. */
  token: string | undefined;
  /** Whether this listener serves `/metrics` at all (otherwise it answers 404, as for any unknown path). */
  serve: boolean;
}

/**
 * `GET /metrics` (Prometheus text). Metrics tell how busy a node is, which routes fail and how the model is used,
 * so they are not public: on the main port only with METRICS_TOKEN, or on the separate metrics listener.
 */
export function createMetricsRouter({ metrics, token, serve }: MetricsAccess): Router {
  const router = Router();
  router.get('/metrics', async (request, response) => {
    if (!serve) throw new AppError(ErrorCode.NOT_FOUND, '요청한 주소를 찾을 수 없습니다: GET /metrics');
    if (token !== undefined && !bearerMatches(request, token)) {
      response.set('WWW-Authenticate', 'Bearer');
      throw new AppError(ErrorCode.UNAUTHORIZED, '메트릭을 읽으려면 METRICS_TOKEN이 필요합니다.');
    }
    response.setHeader('Content-Type', metrics.registry.contentType);
    response.send(await metrics.registry.metrics());
  });
  return router;
}

/** The separate metrics listener (METRICS_PORT): `/metrics` and nothing else. Never listens by itself (see main.ts). */
export function createMetricsServer(options: { metrics: Metrics; token: string | undefined; logger: Logger }): HttpServer {
  const app = express();
  app.disable('x-powered-by');
  app.use(securityHeaders());
  app.use(createMetricsRouter({ metrics: options.metrics, token: options.token, serve: true }));
  app.use((_request, response) => {
    response.status(404).json({ error: { code: ErrorCode.NOT_FOUND, message: '요청한 주소를 찾을 수 없습니다.' } });
  });
  app.use(errorMiddleware(options.logger));
  return createHttpServer(app);
}

/** Constant time in the token's content and length: both sides are hashed to 32 bytes before comparing. */
function bearerMatches(request: Request, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(request.get('authorization') ?? '')?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(token));
}
