/**
 * The labelled query set of `bench:retrieval`: questions a student or an agent would ask of the sample "기초 통계",
 * the Korean trade handbook and the English safety handbook (scripts/retrieval-fixtures.ts). Korean questions come
 * in variants — with particles and endings (`표본평균이란`, `신용장은`), without spaces (`기댓값의선형성`), with
 * extra spaces (`공장 인도 조건`), informal (`뭐야`) — and English ones with other word forms than the text
 * (`lifting` / `lift`, `inspections`). A passage answers a query when its text (whitespace collapsed) contains one
 * of the query's `answers`: phrases taken from the sentence that answers it, so the labels survive changes of the
 * chunk boundaries.
 */

export interface LabelledQuery {
  query: string;
  material: 'sample' | 'trade' | 'safety';
  /** What the variant exercises. */
  kind: 'plain' | 'particles' | 'spacing' | 'informal' | 'english' | 'word-forms';
  answers: string[];
}

export const LABELLED_QUERIES: readonly LabelledQuery[] = [
  // 기초 통계 (the sample)
  { query: '표본평균이란 무엇인가요?', material: 'sample', kind: 'particles', answers: ['표본의 평균을 표본평균'] },
  { query: '표본 평균 뜻', material: 'sample', kind: 'spacing', answers: ['표본의 평균을 표본평균'] },
  { query: '기댓값의선형성', material: 'sample', kind: 'spacing', answers: ['E[aX + b] = a·E[X] + b'] },
  { query: '도박사의오류가 뭐야', material: 'sample', kind: 'informal', answers: ['도박사의 오류'] },
  { query: '이상값이 있으면 평균은 어떻게 되나요', material: 'sample', kind: 'particles', answers: ['이상값)에 크게 흔들립니다'] },
  { query: '표본평균이 기댓값에 가까워지는 법칙', material: 'sample', kind: 'plain', answers: ['대수의 법칙: n이 커질수록'] },
  { query: '주사위 눈의 기댓값은 얼마인가', material: 'sample', kind: 'particles', answers: ['= 3.5'] },
  { query: '편차를 모두 더하면', material: 'sample', kind: 'plain', answers: ['편차를 모두 더하면 항상 0'] },
  // 무역 실무 입문 (trade handbook)
  { query: 'FOB 조건에서 운송 보험료는 누가 부담하나요?', material: 'trade', kind: 'particles', answers: ['FOB 조건에서 해상 운임과 적하 보험료는 매수인'] },
  { query: '본선인도조건이란', material: 'trade', kind: 'particles', answers: ['본선인도조건(FOB, Free On Board)은'] },
  { query: '인코텀즈가 뭐예요', material: 'trade', kind: 'informal', answers: ['인코텀즈(Incoterms)란'] },
  { query: '공장 인도 조건', material: 'trade', kind: 'spacing', answers: ['공장인도조건(EXW, Ex Works)은'] },
  { query: '관세까지 매도인이 내는 조건은?', material: 'trade', kind: 'particles', answers: ['관세지급인도조건(DDP, Delivered Duty Paid)은'] },
  { query: '수출신고는 언제 해야 하나요', material: 'trade', kind: 'particles', answers: ['수출신고는 물품을 선적하기 전에'] },
  { query: '선하증권의 역할', material: 'trade', kind: 'particles', answers: ['선하증권(B/L, Bill of Lading)은 운송인이'] },
  { query: '신용장이란 무엇인가', material: 'trade', kind: 'particles', answers: ['신용장(L/C, Letter of Credit)은'] },
  { query: 'HS코드는 몇 자리인가요', material: 'trade', kind: 'spacing', answers: ['앞의 6자리는 세계 공통'] },
  { query: '신용장 서류가 불일치하면', material: 'trade', kind: 'particles', answers: ['서류 불일치(discrepancy)가 흔한 오류'] },
  { query: '컨테이너 화물에 FOB를 쓰면 안 되는 이유', material: 'trade', kind: 'particles', answers: ['컨테이너 화물에 습관적으로 FOB를'] },
  { query: '상업송장에서 확인할 항목', material: 'trade', kind: 'particles', answers: ['□ 상업송장: 품명, 수량'] },
  { query: '선하증권 점검 사항', material: 'trade', kind: 'plain', answers: ['□ 선하증권: 선적일이'] },
  { query: '가격 협상에서 양보하는 방법', material: 'trade', kind: 'particles', answers: ['양보는 한 번에 크게 하지 말고'] },
  { query: 'BATNA가 뭔가요', material: 'trade', kind: 'informal', answers: ['BATNA(Best Alternative to a Negotiated Agreement)는'] },
  { query: '미국으로 수출할 때 ISF 제출 기한', material: 'trade', kind: 'particles', answers: ['ISF(Importer Security Filing'] },
  { query: '중국 강제인증', material: 'trade', kind: 'plain', answers: ['CCC 강제인증'] },
  { query: '유럽연합에 수출하는 전기제품에 붙이는 표시', material: 'trade', kind: 'spacing', answers: ['CE 마킹을 붙여야'] },
  { query: '베트남 원산지증명서 양식', material: 'trade', kind: 'plain', answers: ['양식 AK(Form AK)'] },
  { query: '최종 선적일을 넘긴 사례', material: 'trade', kind: 'particles', answers: ['A사는 신용장에 적힌 최종 선적일'] },
  { query: 'D/A와 D/P의 차이', material: 'trade', kind: 'particles', answers: ['지급인도조건(D/P)과 인수인도조건(D/A)'] },
  { query: '적하보험 ICC(A) 조건', material: 'trade', kind: 'spacing', answers: ['협회적하약관 ICC(A)는'] },
  { query: '보험금액은 CIF 가격의 몇 퍼센트로 하나요', material: 'trade', kind: 'particles', answers: ['CIF 가격의 110%'] },
  { query: '관세의 과세가격은 어떻게 정하나', material: 'trade', kind: 'spacing', answers: ['과세 가격은 CIF 가격'] },
  { query: '관세환급 신청 기한', material: 'trade', kind: 'spacing', answers: ['수출신고 수리일로부터 2년 안에'] },
  { query: '중재 판정의 효력', material: 'trade', kind: 'particles', answers: ['판정은 법원 판결과 같은 효력'] },
  { query: '선물환으로 환율 위험 줄이기', material: 'trade', kind: 'particles', answers: ['선물환 거래는 미래의 정해진 날'] },
  { query: '포워더는 무슨 일을 하나요', material: 'trade', kind: 'informal', answers: ['포워더(국제물류주선업자)는'] },
  // Workplace Safety Essentials (English handbook)
  { query: 'what is a hazard', material: 'safety', kind: 'english', answers: ['A hazard is defined as'] },
  { query: 'difference between hazard and risk', material: 'safety', kind: 'english', answers: ['Risk refers to the combination'] },
  { query: 'near miss definition', material: 'safety', kind: 'english', answers: ['A near miss is an unplanned event'] },
  { query: 'steps of a risk assessment', material: 'safety', kind: 'word-forms', answers: ['A risk assessment follows five steps'] },
  { query: 'how do I lock out a machine before servicing it', material: 'safety', kind: 'word-forms', answers: ['Lockout and tagout is the procedure'] },
  { query: 'common mistakes when lifting heavy loads', material: 'safety', kind: 'word-forms', answers: ['A common mistake when lifting'] },
  { query: 'ladder errors', material: 'safety', kind: 'word-forms', answers: ['error is using a ladder'] },
  { query: 'forklift inspections before a shift', material: 'safety', kind: 'word-forms', answers: ['Before each shift, the operator must check the forklift'] },
  { query: 'OSHA injury log', material: 'safety', kind: 'english', answers: ['OSHA Form 300'] },
  { query: 'EU framework directive employer duties', material: 'safety', kind: 'english', answers: ['Framework Directive 89/391/EEC'] },
  { query: 'forklift accident case study', material: 'safety', kind: 'english', answers: ['In one case study, a forklift'] },
  { query: 'which extinguisher for an electrical fire', material: 'safety', kind: 'word-forms', answers: ['Carbon dioxide extinguishers are the choice for electrical fires'] },
  { query: 'what is a safety data sheet', material: 'safety', kind: 'english', answers: ['A safety data sheet (SDS) is'] },
  { query: 'chemical splashed in the eyes', material: 'safety', kind: 'word-forms', answers: ['splashes into the eyes'] },
  { query: 'residual current device', material: 'safety', kind: 'english', answers: ['Residual current devices (RCDs)'] },
  { query: 'CPR compression rate', material: 'safety', kind: 'english', answers: ['100 to 120 per minute'] },
  { query: 'screen height for computer work', material: 'safety', kind: 'english', answers: ['top of the screen should be at or slightly below eye level'] },
  { query: 'noise level that damages hearing', material: 'safety', kind: 'word-forms', answers: ['85 decibels'] },
];
