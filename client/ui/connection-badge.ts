import type { ConnectionState } from '../net/lifecycle.js';

const LABELS: Record<ConnectionState, string> = {
  connected: '실시간 연결됨',
  connecting: '연결 중…',
  reconnecting: '다시 연결 중…',
  offline: '연결 끊김',
};

/** The connection badge in a page's header; `connectedLabel` where a page words the connected state its own way. */
export function showConnection(node: HTMLElement, state: ConnectionState, connectedLabel = LABELS.connected): void {
  node.dataset.state = state;
  node.textContent = state === 'connected' ? connectedLabel : LABELS[state];
}
