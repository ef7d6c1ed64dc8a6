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

/**
 * The process_* and nodejs_* metrics (nodejs_eventloop_lag_* from perf_hooks, GC durations from a performance
 * observer) describe the process, not a server: they are collected once per process and every server's registry
 * shows them. Their monitors (an event-loop delay timer, a GC observer) are never stopped, so one per server would
 * pile up in a process that starts many servers (the tests) and slow everything after.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 20 });
  }
  return processRegistry;
}

export function createMetrics(): Metrics {
  const own = new Registry();
  const metrics = {
    modelCalls: new Counter({
      name: 'lectern_model_calls_total',
      help: 'Model calls by role, model kind and method',
      labelNames: ['role', 'kind', 'method'] as const,
      registers: [own],
    }),
    modelTokens: new Counter({
      name: 'lectern_model_tokens_total',
      help: 'Model tokens by role and direction (input/output)',
      labelNames: ['role', 'direction'] as const,
      registers: [own],
    }),
    modelErrors: new Counter({
      name: 'lectern_model_errors_total',
      help: 'Failed model calls by role and error code',
      labelNames: ['role', 'code'] as const,
      registers: [own],
    }),
    modelLatency: new Histogram({
      name: 'lectern_model_latency_seconds',
      help: 'Model call latency (to the last delta for streams) by role',
      labelNames: ['role', 'method'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
      registers: [own],
    }),
    socketsConnected: new Gauge({
      name: 'lectern_sockets_connected',
      help: 'Connected sockets per socket.io namespace',
      labelNames: ['namespace'] as const,
      registers: [own],
    }),
    httpRequests: new Counter({
      name: 'lectern_http_requests_total',
      help: 'HTTP requests by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [own],
    }),
  };
  // A merged registry holds the same metric objects: what this server counts shows in it as it happens.
  return { registry: Registry.merge([processMetrics(), own]), ...metrics };
}
