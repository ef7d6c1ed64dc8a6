import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../src/kernel/config.js';

/**
 * LT8 (test/SPEC.md): the deployment files agree with the code, since no container engine runs here to try them:
 * compose.yaml's services, health checks and environment names (every one a variable config.ts reads, and the
 * environment it gives a node a configuration that loads), the Caddyfile's upstreams, `.env.example` naming every
 * variable compose.yaml takes from `.env`, and the Dockerfile's stages, user, health check and start command.
 */

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

interface Service {
  build?: string;
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: string[];
  ports?: string[];
}

const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const example = Object.fromEntries(
  read('.env.example')
    .split('\n')
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);

/** compose.yaml's `${NAME…}` with the values of `.env.example` (what `docker compose` does with a filled-in .env). */
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Z_]+)(?::?[-?][^}]*)?\}/g, (_match, name: string) => example[name] ?? '');
}

describe('the deployment files', () => {
  it('LT8 compose.yaml runs two lectern nodes on one Redis behind Caddy, each healthy only when /readyz answers', () => {
    const { services } = compose;
    expect(Object.keys(services).sort()).toEqual(['caddy', 'lectern-1', 'lectern-2', 'redis']);
    for (const name of ['lectern-1', 'lectern-2']) {
      const node = services[name]!;
      expect(node.build).toBe('.');
      expect(node.depends_on?.redis?.condition).toBe('service_healthy');
      expect(node.healthcheck?.test.join(' ')).toContain('/readyz');
      expect(node.environment?.NODE_ID).toBe(name);
      expect(node.volumes).toEqual([`${name}-data:/data`]);
    }
    expect(services.caddy?.depends_on).toEqual({ 'lectern-1': { condition: 'service_healthy' }, 'lectern-2': { condition: 'service_healthy' } });
    expect(services.caddy?.ports).toEqual(['80:80', '443:443', '443:443/udp']);
    expect(services.caddy?.volumes).toContain('./Caddyfile:/etc/caddy/Caddyfile:ro');
  });

  it('LT8 Redis keeps what it holds: append-only file every second, a memory limit, no eviction, a password, a volume', () => {
    const redis = compose.services.redis!;
    const command = (redis.command ?? []).map(interpolate);
    const option = (name: string) => command[command.indexOf(name) + 1];
    expect(command[0]).toBe('redis-server');
    expect([option('--appendonly'), option('--appendfsync'), option('--maxmemory-policy')]).toEqual(['yes', 'everysec', 'noeviction']);
    expect(option('--maxmemory')).toBe(example.REDIS_MAXMEMORY);
    expect(option('--requirepass')).toBe(example.REDIS_PASSWORD);
    expect(redis.volumes).toEqual(['redis-data:/data']);
    expect(redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
  });

  it('LT8 every variable a node gets is one config.ts reads, and together they load: Redis, the public URL, the proxy, the secret', () => {
    const environment = compose.services['lectern-1']!.environment ?? {};
    const unknown = Object.keys(environment).filter((name) => !CONFIG_VARIABLES.includes(name) && name !== 'NODE_ENV');
    expect(unknown).toEqual([]);
    const config = loadConfig(Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, interpolate(String(value))])));
    expect(config.redisUrl).toBe(`redis://:${example.REDIS_PASSWORD}@redis:6379/0`);
    expect(config.publicUrl).toBe(example.PUBLIC_URL);
    expect(config.trustProxy).toBe('loopback,uniquelocal');
    expect(config.tokenSecrets).toEqual([example.TOKEN_SECRET]);
    expect(config.signup).toBe('invite');
    expect(config.provider).toBe('offline');
  });

  it('LT8 .env.example names every variable compose.yaml takes from .env, and nothing else', () => {
    const used = new Set([...read('compose.yaml').matchAll(/\$\{([A-Z_]+)/g)].map((match) => match[1]));
    expect([...used].sort()).toEqual(Object.keys(example).sort());
    // The ones without a default stop `docker compose` with a message naming them.
    for (const required of ['REDIS_PASSWORD', 'PUBLIC_URL', 'TOKEN_SECRET', 'LECTERN_DOMAIN']) expect(read('compose.yaml')).toContain(`\${${required}:?set ${required} in .env}`);
  });

  it('LT8 the Caddyfile proxies to both nodes with /readyz health checks, under the .env domain, and keeps /metrics inside', () => {
    const caddyfile = read('Caddyfile');
    expect(caddyfile).toMatch(/^\{\$LECTERN_DOMAIN\} \{$/m);
    expect(caddyfile).toMatch(/reverse_proxy lectern-1:3000 lectern-2:3000 \{/);
    expect(caddyfile).toMatch(/health_uri \/readyz/);
    expect(caddyfile).toMatch(/respond @metrics 404/);
  });

  it('LT8 the Dockerfile builds in one stage and runs in another, as a non-root user, with the pages built in and /readyz as its health check', () => {
    const dockerfile = read('Dockerfile');
    const stages = [...dockerfile.matchAll(/^FROM (\S+) AS (\w+)$/gm)].map((match) => [match[1], match[2]]);
    expect(stages).toEqual([
      ['node:20-bookworm-slim', 'build'],
      ['node:20-bookworm-slim', 'runtime'],
    ]);
    const [build, runtime] = dockerfile.split(/^FROM .* AS runtime$/m);
    expect(build).toContain('RUN npm run build && npm prune --omit=dev');
    expect(runtime).toContain('COPY --from=build /app/public ./public');
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n\s+CMD .*\/readyz/m);
    expect(runtime).toMatch(/^CMD \["node", "dist\/src\/main\.js"\]$/m);
    // The image's port is the one compose's health check asks.
    expect(runtime).toMatch(/PORT=3000/);
    expect(compose.services['lectern-1']!.healthcheck?.test.join(' ')).toContain('127.0.0.1:3000/readyz');
  });
});
