/**
 * What this server runs on, from `GET /healthz`: pages say before an action what the offline model cannot do (the
 * math form, the AI 품질 grades), instead of failing after it.
 */
export interface ServerModel {
  /** The offline model: extractive writing and rule-based grading, no model behind it. */
  offline: boolean;
}

let cached: Promise<ServerModel> | undefined;

export function serverModel(): Promise<ServerModel> {
  cached ??= fetch('/healthz')
    .then(async (response) => ((await response.json()) as { model?: string }).model === 'offline')
    .then((offline) => ({ offline }))
    .catch(() => ({ offline: false }));
  return cached;
}
