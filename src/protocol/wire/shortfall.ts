/**
 * A generation that made fewer sound items than were asked — a quiz, an exam, a self-study quiz — says so with its
 * result instead of failing: what was asked, what was made, why, and a Korean sentence to show as it is
 * ("이 장에서 만들 수 있는 문항은 3개입니다"). Absent when every item asked for was made.
 */
export type ShortfallReason =
  /** The material (or chapter) has fewer sentences an item can be made of. */
  | 'too-little-material'
  /** Items were written but refused by the item guard and could not be rewritten. */
  | 'items-refused';

export interface GenerationShortfall {
  requested: number;
  made: number;
  reason: ShortfallReason;
  message: string;
}

/** The Korean sentence of a shortfall (`scope`: `이 장`, `이 자료`). */
export function shortfallMessage(scope: string, made: number, requested: number): string {
  return `${scope}에서 만들 수 있는 문항은 ${made}개입니다(요청 ${requested}개). 자료에 근거가 충분한 문항만 냈습니다.`;
}
