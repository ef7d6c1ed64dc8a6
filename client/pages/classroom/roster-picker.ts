// A class that requires its roster: after the code, the student picks their own name from the instructor's list
// (names already taken on another device are shown but cannot be picked). GET /api/classes/:code/roster.
import type { RosterChoices } from '../../../src/protocol/wire/classroom.js';
import { jsonBody, sendRetryingAfter } from '../../net/http.js';
import { $, element } from '../../ui/dom.js';
import { errorText } from '../../ui/messages.js';

const picker = $('roster-picker');

/**
 * The class's roster names, or null for a class where students choose their own nickname (asked again after a
 * `Retry-After`, told to `waiting`). Throws a Korean message.
 */
export async function rosterOf(code: string, waiting: (seconds: number) => void = () => undefined): Promise<RosterChoices> {
  const response = await sendRetryingAfter(() => fetch(`/api/classes/${encodeURIComponent(code)}/roster`), waiting);
  const body = await jsonBody<RosterChoices>(response);
  if (!response.ok) throw new Error(errorText(body.error, '수업을 찾지 못했습니다.'));
  return body;
}

/** Shows the names as buttons; `pick` joins with the chosen one. */
export function showRosterPicker(choices: RosterChoices & { names: NonNullable<RosterChoices['names']> }, pick: (name: string) => void): void {
  const buttons = choices.names.map(({ name, taken }) => {
    const button = element('button', {
      type: 'button',
      className: taken ? 'roster-name taken' : 'roster-name',
      text: taken ? `${name} (참여함)` : name,
      disabled: taken,
      'data-testid': 'roster-name',
    });
    button.addEventListener('click', () => pick(name));
    return button;
  });
  picker.replaceChildren(
    element('h3', { text: `${choices.className}: 명단에서 자기 이름을 골라 주세요` }),
    element('p', { className: 'muted small-text', text: '이미 참여한 이름은 고를 수 없습니다. 내 이름이 참여함으로 보이면 선생님께 말씀해 주세요.' }),
    element('div', { className: 'roster-names' }, ...buttons),
  );
  picker.hidden = false;
}

export function hideRosterPicker(): void {
  picker.hidden = true;
  picker.replaceChildren();
}
