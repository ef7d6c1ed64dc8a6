import type { Express } from 'express';

/** One route of an express app: its method (upper case) and its full path pattern, e.g. `/api/classes/:classId`. */
export interface ListedRoute {
  method: string;
  path: string;
}

interface RouterLayer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
}

/**
 * Every route the app's routers declare, read from express's own layer stacks (mounted routers included), so a test
 * over "every route with a path parameter" follows the routers instead of a hand-written list.
 */
export function listRoutes(app: Express): ListedRoute[] {
  const routes: ListedRoute[] = [];
  const walk = (stack: RouterLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const path of patterns(layer.route.path)) {
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (on && method !== '_all') routes.push({ method: method.toUpperCase(), path: join(prefix, path) });
          }
        }
      } else if (layer.handle?.stack) {
        for (const mount of patterns(layer.rawPath)) walk(layer.handle.stack, join(prefix, mount));
      }
    }
  };
  walk((app as unknown as { router: { stack: RouterLayer[] } }).router.stack, '');
  return routes;
}

function patterns(path: unknown): string[] {
  if (typeof path === 'string') return [path];
  if (Array.isArray(path)) return path.filter((item): item is string => typeof item === 'string');
  return [];
}

function join(prefix: string, path: string): string {
  const joined = `${prefix.replace(/\/$/, '')}/${path.replace(/^\//, '')}`;
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}
