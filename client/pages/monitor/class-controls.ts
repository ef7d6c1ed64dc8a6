// The monitor's class controls: "코드 바꾸기" (`class:rotate-code`) and "수업 끝내기" (`class:close`), each after a
// confirmation, and the closed state (a badge, the code struck through, the buttons off) however it is learned: the
// roster on connect, this tab's command or another tab's `class:closed`.
import type { MonitorCommands } from '../../net/monitor-protocol.js';
import type { CommandAck } from '../../net/socket.js';
import { $ } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';
import { errorText } from '../../ui/messages.js';

const rotateButton = $<HTMLButtonElement>('rotate-code');
const closeButton = $<HTMLButtonElement>('close-class');
const closedBadge = $('class-closed');
const joinCode = $('join-code');
const errorLine = $('class-control-error');

type ControlCommand = 'class:close' | 'class:rotate-code';

export interface ClassControlsOptions {
  command<K extends ControlCommand>(name: K): Promise<CommandAck<MonitorCommands[K]['result']>>;
  className(): string;
  /** The join code changed (this tab's rotation). */
  rotated(code: string): void;
}

export class ClassControls {
  constructor(private readonly options: ClassControlsOptions) {
    rotateButton.addEventListener('click', () => void this.rotate());
    closeButton.addEventListener('click', () => void this.close());
  }

  /** A newly opened class: open until the roster says otherwise. */
  reset(): void {
    this.showClosed(null);
    errorLine.textContent = '';
  }

  showClosed(closedAt: number | null): void {
    const closed = closedAt !== null;
    closedBadge.hidden = !closed;
    joinCode.dataset.closed = String(closed);
    rotateButton.disabled = closed;
    closeButton.disabled = closed;
  }

  private async rotate(): Promise<void> {
    errorLine.textContent = '';
    if (!window.confirm('참여 코드를 새로 바꿀까요? 지금 코드로는 더 이상 들어올 수 없습니다. 이미 들어온 학생은 그대로입니다.')) return;
    const ack = await whileBusy(rotateButton, '바꾸는 중…', () => this.options.command('class:rotate-code'));
    if (ack.ok) this.options.rotated(ack.code);
    else errorLine.textContent = errorText(ack.error, '코드를 바꾸지 못했습니다.');
  }

  private async close(): Promise<void> {
    errorLine.textContent = '';
    const name = this.options.className();
    if (!window.confirm(`"${name}" 수업을 끝낼까요? 참여 코드로 더 이상 들어올 수 없고, 접속한 학생에게 수업이 끝났다고 알립니다. 되돌릴 수 없습니다.`)) return;
    const ack = await whileBusy(closeButton, '끝내는 중…', () => this.options.command('class:close'));
    if (ack.ok) this.showClosed(ack.closedAt);
    else errorLine.textContent = errorText(ack.error, '수업을 끝내지 못했습니다.');
  }
}
