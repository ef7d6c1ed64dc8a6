import type { Deck, DeckSlide } from './slide-decks.js';

/**
 * Frozen held-out decks for `npm run eval:chapters`: written after the chapter planner's rules were settled and never
 * used to change them. Tests do not assert on them; the eval prints how well the planner finds their sections.
 */
const slide = (section: string, title: string, ...lines: string[]): DeckSlide => ({ section, title, lines });

export const chemistryBondingDeck: Deck = {
  name: 'chemistry-bonding',
  korean: true,
  titleStyle: 'heading',
  slides: [
    slide('front', '화학 I — 화학 결합', '2학년 화학 수업 자료', '서울과학고 김태희'),
    slide('ionic', '이온 결합의 형성', '금속 원자는 전자를 잃어 양이온이, 비금속 원자는 전자를 얻어 음이온이 된다.', '양이온과 음이온이 정전기적 인력으로 결합한 것이 이온 결합이다.'),
    slide('ionic', '이온 결합 에너지', '이온 사이의 거리가 가까워지면 인력과 반발력이 균형을 이루는 지점에서 에너지가 가장 낮다.', '이 거리를 이온 결합 길이라고 한다.'),
    slide('ionic', '이온 결정의 성질', '이온 결정은 녹는점이 높고 단단하지만 외부 힘에 쉽게 부서진다.', '고체 상태에서는 전기가 통하지 않지만 녹거나 물에 녹으면 전기가 통한다.'),
    slide('ionic', '염화 나트륨의 구조', '염화 나트륨 결정에서 나트륨 이온 하나를 염화 이온 6개가 둘러싼다.', '단위 세포는 정육면체 모양이다.'),
    slide('ionic', '확인 문제', '이온 결합 물질이 고체 상태에서 전기 전도성이 없는 까닭을 설명하시오.'),
    slide('covalent', '공유 결합의 형성', '비금속 원자들이 전자쌍을 공유하여 결합하는 것을 공유 결합이라 한다.', '각 원자는 비활성 기체와 같은 전자 배치를 이룬다.'),
    slide('covalent', '단일 결합과 다중 결합', '두 원자가 전자쌍 하나를 공유하면 단일 결합, 둘이면 2중 결합, 셋이면 3중 결합이다.', '결합 수가 많을수록 결합 길이는 짧아진다.'),
    slide('covalent', '전기 음성도와 극성', '전기 음성도가 다른 원자 사이의 공유 결합은 극성 공유 결합이다.', '같은 원자 사이의 결합은 무극성 공유 결합이다.'),
    slide('covalent', '루이스 전자점식', '원자가 전자를 점으로 나타내어 공유 전자쌍과 비공유 전자쌍을 표시한다.', '물 분자에는 비공유 전자쌍이 2개 있다.'),
    slide('metallic', '금속 결합', '금속 양이온과 자유 전자 사이의 정전기적 인력으로 이루어진 결합이다.', '자유 전자는 금속 전체를 자유롭게 움직인다.'),
    slide('metallic', '금속의 전기 전도성', '자유 전자가 이동하므로 금속은 고체 상태에서도 전기가 잘 통한다.', '열 전도성도 크다.'),
    slide('metallic', '금속의 연성과 전성', '힘을 가해도 자유 전자가 금속 양이온 사이를 메워 결합이 유지된다.', '그래서 금속은 얇게 펴지고 길게 늘어난다.'),
    slide('metallic', '금속 광택', '자유 전자가 빛을 흡수했다가 다시 방출하여 금속 광택이 나타난다.'),
    slide('shape', '전자쌍 반발 이론', '중심 원자 주위의 전자쌍은 서로 반발하여 가능한 한 멀리 떨어지려 한다.', '이 원리로 분자의 모양을 예측할 수 있다.'),
    slide('shape', '직선형과 평면 삼각형', '전자쌍이 2개이면 직선형(180°), 3개이면 평면 삼각형(120°)이다.', '이산화 탄소는 직선형, 삼플루오린화 붕소는 평면 삼각형이다.'),
    slide('shape', '사면체형, 삼각뿔형, 굽은형', '메테인은 정사면체형(109.5°)이다.', '비공유 전자쌍이 있으면 암모니아는 삼각뿔형, 물은 굽은형이 된다.'),
    slide('shape', '분자의 극성', '결합에 극성이 있어도 분자 구조가 대칭이면 무극성 분자이다.', '물은 굽은형이라 극성 분자이다.'),
    slide('shape', '극성과 물질의 성질', '극성 분자는 극성 용매에, 무극성 분자는 무극성 용매에 잘 녹는다.', '극성 분자는 대전체에 끌린다.'),
    slide('front', '다음 시간 예고', '탄소 화합물의 구조와 성질'),
  ],
};

export const macroeconomicsDeck: Deck = {
  name: 'macroeconomics',
  korean: false,
  titleStyle: 'first-line',
  slides: [
    slide('front', 'ECON 102 Principles of Macroeconomics', 'Unit 5: Inflation, Unemployment and Monetary Policy'),
    slide('inflation', 'Measuring Inflation', 'Inflation is a sustained rise in the general price level.', 'The consumer price index tracks the cost of a fixed basket of goods.'),
    slide('inflation', 'Causes of Inflation', 'Demand-pull inflation comes from spending that outgrows output.', 'Cost-push inflation comes from rising input costs such as oil.'),
    slide('inflation', 'Costs of Inflation', 'Unexpected inflation redistributes wealth from lenders to borrowers.', 'Menu costs and shoe-leather costs waste resources.'),
    slide('inflation', 'Hyperinflation', 'Zimbabwe in 2008 and Germany in 1923 printed money to pay debts.', 'Prices doubled every few days and money lost its value.'),
    slide('unemployment', 'Measuring Unemployment', 'The unemployment rate is the share of the labour force without a job and looking for one.', 'Discouraged workers are not counted in the labour force.'),
    slide('unemployment', 'Types of Unemployment', 'Frictional unemployment comes from people between jobs.', 'Structural unemployment comes from a mismatch of skills; cyclical unemployment from recessions.'),
    slide('unemployment', 'The Natural Rate', 'The natural rate of unemployment is frictional plus structural unemployment.', 'It is the rate when the economy produces at its potential.'),
    slide('unemployment', 'The Phillips Curve', 'In the short run lower unemployment comes with higher inflation.', 'In the long run the curve is vertical at the natural rate.'),
    slide('money', 'What Is Money?', 'Money is a medium of exchange, a unit of account and a store of value.', 'M1 counts currency and checking deposits.'),
    slide('money', 'The Central Bank', 'The central bank issues currency and supervises banks.', 'In the United States it is the Federal Reserve.'),
    slide('money', 'Tools of Monetary Policy', 'Open market operations buy and sell government bonds.', 'The policy interest rate and reserve requirements also change the money supply.'),
    slide('money', 'Monetary Policy and Interest Rates', 'Buying bonds adds reserves and lowers interest rates.', 'Lower rates encourage borrowing, investment and spending.'),
    slide('money', 'Inflation Targeting', 'Many central banks aim for inflation of about 2 percent a year.', 'A credible target anchors expectations.'),
    slide('fiscal', 'Fiscal Policy', 'Fiscal policy uses government spending and taxes to steer the economy.', 'Expansionary fiscal policy raises spending or cuts taxes.'),
    slide('fiscal', 'The Multiplier', 'Each dollar of government spending can raise output by more than a dollar.', 'The multiplier is 1 / (1 - MPC).'),
    slide('fiscal', 'Crowding Out', 'Government borrowing can raise interest rates and reduce private investment.', 'Crowding out weakens the effect of fiscal stimulus.'),
    slide('fiscal', 'Budget Deficits and Debt', 'A deficit is the yearly shortfall; the debt is the sum of past deficits.', 'High debt can limit future policy choices.'),
    slide('front', 'Summary', 'Inflation and unemployment are linked in the short run; monetary and fiscal policy try to keep both low.'),
  ],
};

export const HELDOUT_DECKS: readonly Deck[] = [chemistryBondingDeck, macroeconomicsDeck];
