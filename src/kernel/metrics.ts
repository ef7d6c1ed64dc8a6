import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One Prometheus registry per server instance (not the global one), so tests can run several servers in one
 * process without metric name clashes.
 */
export interface Metrics {
  registry: Registry;
  modelCalls: Counter<'role' | 'kind' | 'method'>;
  modelTokens: Counter<'role' | 'direction'>;
  modelErrors: Counter<'role' | 'code'>;
  modelLatency: Histogram<'role' | 'method'>;
  socketsConnected: Gauge<'namespace'>;
  httpRequests: Counter<'method' | 'route' | 'status'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  // process_* and nodejs_* metrics, including nodejs_eventloop_lag_* from perf_hooks.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  return {
    registry,
    modelCalls: new Counter({
      name: 'lectern_model_calls_total',
      help: 'Model calls by role, model kind and method',
      labelNames: ['role', 'kind', 'method'] as const,
      registers: [registry],
    }),
    modelTokens: new Counter({
      name: 'lectern_model_tokens_total',
      help: 'Model tokens by role and direction (input/output)',
      labelNames: ['role', 'direction'] as const,
      registers: [registry],
    }),
    modelErrors: new Counter({
      name: 'lectern_model_errors_total',
      help: 'Failed model calls by role and error code',
      labelNames: ['role', 'code'] as const,
      registers: [registry],
    }),
    modelLatency: new Histogram({
      name: 'lectern_model_latency_seconds',
      help: 'Model call latency (to the last delta for streams) by role',
      labelNames: ['role', 'method'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
      registers: [registry],
    }),
    socketsConnected: new Gauge({
      name: 'lectern_sockets_connected',
      help: 'Connected sockets per socket.io namespace',
      labelNames: ['namespace'] as const,
      registers: [registry],
    }),
    httpRequests: new Counter({
      name: 'lectern_http_requests_total',
      help: 'HTTP requests by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
  };
}
