// Landing page: shows which store and model this server runs on.
import { $ } from '../ui/dom.js';

const status = $('status');
const storeNames: Record<string, string> = { memory: '메모리 저장소 (단일 서버)', redis: 'Redis (여러 서버 노드)' };
const modelNames: Record<string, string> = { offline: '오프라인 모델 (네트워크 없이 추출식)', gemini: 'Google Gemini' };

interface Health {
  store: string;
  model: string;
  version: string;
}

async function showStatus(): Promise<void> {
  try {
    const response = await fetch('/healthz');
    const health = (await response.json()) as Health;
    status.textContent = `실행 중 · 저장소: ${storeNames[health.store] ?? health.store} · 모델: ${modelNames[health.model] ?? health.model} · 버전 ${health.version}`;
    status.dataset.store = health.store;
    status.dataset.model = health.model;
  } catch {
    status.textContent = '서버에 연결할 수 없습니다.';
    status.className = 'error';
  }
}
void showStatus();
