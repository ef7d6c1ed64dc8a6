import { buildPdf, type FixturePage } from './pdf-fixtures.js';

/**
 * Slide decks written the way lecturers write them, each slide tagged with the section a reader would put it in
 * (`front` for cover, agenda and closing slides). Tests plan chapters from the real PDFs and compare the cuts and
 * titles with these sections; no product code decides what is expected.
 */
export interface DeckSlide {
  section: string;
  title: string;
  lines: string[];
}

export interface Deck {
  name: string;
  korean: boolean;
  /** Titles drawn large (heading font) or as the page's first plain line. */
  titleStyle: 'heading' | 'first-line';
  slides: DeckSlide[];
}

/** One slide of a deck: its section, its title and its lines. */
export const slide = (section: string, title: string, ...lines: string[]): DeckSlide => ({ section, title, lines });

/** An AI course lecture: search, heuristics, local search and gradient ascent, genetic algorithms. */
export const aiSearchDeck: Deck = {
  name: 'ai-search',
  korean: false,
  titleStyle: 'heading',
  slides: [
    slide('front', 'CS 3346 Introduction to Artificial Intelligence', 'Lecture 3: Search and Optimization', 'Fall 2024', 'Prof. Dana Whitfield'),
    slide('front', 'Agenda', 'Uninformed search', 'Informed search and heuristics', 'Local search and gradient ascent', 'Genetic algorithms'),
    slide('uninformed', 'Search Problems', 'A search problem has a state space, a successor function, a start state and a goal test.', 'A solution is a sequence of actions that reaches a goal state.', 'Example: route finding on a road map.'),
    slide('uninformed', 'State Space Graphs and Search Trees', 'In a state space graph each state occurs only once.', 'A search tree expands paths from the start state; the same state may appear many times.', 'We rarely build the whole graph in memory.'),
    slide('uninformed', 'Breadth-First Search', 'Expand the shallowest node first, using a FIFO queue as the fringe.', 'Complete, and optimal when every action costs the same.', 'Time and space grow as b^d for branching factor b and depth d.'),
    slide('uninformed', 'Depth-First Search', 'Expand the deepest node first, using a LIFO stack as the fringe.', 'Uses little memory: only the current path and its siblings.', 'Not complete on infinite state spaces, and not optimal.'),
    slide('uninformed', 'Uniform Cost Search', 'Expand the node with the cheapest path cost g(n), using a priority queue.', 'Optimal when action costs are positive.', 'Explores in every direction: it has no information about the goal location.'),
    slide('uninformed', 'Search Strategies Compared', 'BFS: complete, optimal for unit costs, memory hungry.', 'DFS: low memory, neither complete nor optimal.', 'UCS: optimal for positive costs, explores cost contours.'),
    slide('informed', 'Heuristics', 'A heuristic h(n) estimates the cost from a state to the nearest goal.', 'It is designed for a particular search problem.', 'Examples: Manhattan distance, Euclidean distance for pathing.'),
    slide('informed', 'Greedy Best-First Search', 'Expand the node that seems closest to a goal according to the heuristic.', 'Often fast, but it can be misled by a bad heuristic.', 'Not optimal: it ignores the cost already paid.'),
    slide('informed', 'A* Search', 'A* orders the fringe by f(n) = g(n) + h(n).', 'It combines the path cost of uniform cost search with the heuristic of greedy search.', 'Stop when a goal is dequeued, not when it is enqueued.'),
    slide('informed', 'A* Search: Admissibility', 'A heuristic is admissible if it never overestimates the true cost to a goal.', 'With an admissible heuristic, A* tree search is optimal.', 'Consistency is needed for A* graph search.'),
    slide('informed', 'Designing Admissible Heuristics', 'Admissible heuristics are often the costs of relaxed problems.', 'Relaxing the 8-puzzle rules gives misplaced tiles and Manhattan distance.', 'A dominant heuristic expands fewer nodes.'),
    slide('informed', 'Example: 8-Puzzle Heuristics', 'Misplaced tiles: h1 counts the tiles out of place.', 'Manhattan distance: h2 sums how far each tile is from its goal square.', 'h2 dominates h1, so A* with h2 expands fewer nodes.'),
    slide('local', 'Local Search', 'Local search keeps a single current state and improves it step by step.', 'It forgets the path: only the final state matters.', 'Useful for optimization problems with huge state spaces.'),
    slide('local', 'Hill Climbing', 'Move to the neighbour with the highest objective value.', 'Stop when no neighbour is better than the current state.', 'Random restarts help it escape poor starting points.'),
    slide('local', 'Gradient Ascent / Descent', 'For a continuous objective f(θ), step along the gradient.', 'Update rule: θ ← θ + α ∇f(θ) for ascent, θ ← θ − α ∇f(θ) for descent.', 'The learning rate α sets the step size.'),
    slide('local', 'Choosing the Step Size', 'A step size that is too large overshoots and can diverge.', 'A step size that is too small converges slowly.', 'Line search or a decaying learning rate balances the two.'),
    slide('local', 'Local Maxima and Plateaus', 'Gradient ascent and hill climbing stop at local maxima.', 'On a plateau the gradient is zero and progress stalls.', 'Ridges make the objective climb only along a narrow direction.'),
    slide('local', 'Simulated Annealing', 'Allow downhill moves with a probability that shrinks as the temperature falls.', 'Early on it explores widely; later it behaves like hill climbing.', 'With a slow enough cooling schedule it finds the global optimum.'),
    slide('genetic', 'Genetic Algorithms', 'A genetic algorithm keeps a population of candidate solutions.', 'Each generation selects parents, recombines them and mutates the offspring.', 'Inspired by natural selection.'),
    slide('genetic', 'Genetic Algorithms: Fitness and Selection', 'A fitness function scores each individual of the population.', 'Fitter individuals are selected as parents more often.', 'Roulette-wheel and tournament selection are common.'),
    slide('genetic', 'Genetic Algorithms: Crossover', 'Crossover combines two parents into offspring.', 'One-point crossover cuts both bit strings at the same position and swaps the tails.', 'Crossover mixes building blocks of good solutions.'),
    slide('genetic', 'Genetic Algorithms: Mutation', 'Mutation flips each bit of an offspring with a small probability.', 'It keeps diversity in the population.', 'Too much mutation turns the search into random search.'),
    slide('genetic', 'Example: Evolving Bit Strings', 'Population of 20 bit strings of length 16; fitness counts the ones.', 'After 30 generations of selection, crossover and mutation most individuals are all ones.', 'Plotting the best fitness per generation shows steady improvement.'),
    slide('genetic', 'Genetic Algorithms vs. Gradient Methods', 'Genetic algorithms need no gradient and work on discrete encodings.', 'Gradient methods use local slope information and converge faster on smooth objectives.', 'A population explores several regions of the search space at once.'),
    slide('front', 'Summary', 'Uninformed search explores without knowing where the goal is.', 'A* with an admissible heuristic is optimal.', 'Local search, gradient ascent and genetic algorithms optimize without paths.'),
    slide('front', 'Questions?', 'Office hours: Tuesday 2–4 pm', 'Next lecture: adversarial search'),
  ],
};

/** A Korean history deck: section dividers ("1. 농업의 변화") then content slides, no outline. */
export const koreanHistoryDeck: Deck = {
  name: 'korean-history',
  korean: true,
  titleStyle: 'heading',
  slides: [
    slide('front', '한국사 — 조선 후기의 사회 변화', '고등학교 한국사 8차시', '역사교육과 박지윤'),
    slide('front', '목차', '1. 농업의 변화', '2. 상업의 발달', '3. 신분제의 동요', '4. 실학의 등장'),
    slide('agriculture', '1. 농업의 변화'),
    slide('agriculture', '이앙법의 확산', '모내기법(이앙법)이 전국으로 퍼지면서 벼와 보리의 이모작이 가능해졌다.', '김매기 노동력이 줄어 한 농가가 더 넓은 땅을 경작할 수 있었다.'),
    slide('agriculture', '광작과 농민층의 분화', '넓은 토지를 경작하는 광작이 유행하였다.', '일부 농민은 부농으로 성장하고, 많은 농민은 임노동자가 되었다.'),
    slide('agriculture', '상품 작물의 재배', '인삼, 담배, 목화, 채소 같은 상품 작물을 재배하여 시장에 팔았다.', '쌀의 상품화도 활발해졌다.'),
    slide('commerce', '2. 상업의 발달'),
    slide('commerce', '공인의 등장', '대동법 실시 이후 관청에 물품을 조달하는 공인이 나타났다.', '공인은 특정 물품을 대량으로 취급하며 도고로 성장하였다.'),
    slide('commerce', '사상의 성장', '송상, 경강상인, 만상, 내상 같은 사상이 전국적으로 활동하였다.', '사상은 도고 상업으로 큰 이익을 얻었다.'),
    slide('commerce', '장시와 보부상', '장시가 전국에 1,000여 개로 늘어났다.', '보부상은 장시를 돌며 물품을 유통하였다.'),
    slide('commerce', '화폐의 유통', '상평통보가 전국적으로 유통되었다.', '화폐를 재산으로 모아 두는 전황이 나타나기도 하였다.'),
    slide('status', '3. 신분제의 동요'),
    slide('status', '양반층의 분화', '붕당 정치가 변질되면서 권력을 잃은 양반이 늘었다.', '몰락 양반은 향반이나 잔반이 되었다.'),
    slide('status', '공명첩과 납속책', '정부는 재정을 메우려고 공명첩을 발급하고 납속책을 실시하였다.', '부유한 농민과 상인이 양반 신분을 얻었다.'),
    slide('status', '노비의 감소', '노비종모법으로 양인이 되는 노비가 늘었다.', '1801년 공노비 6만 6천여 명이 해방되었다.'),
    slide('silhak', '4. 실학의 등장'),
    slide('silhak', '중농학파', '유형원, 이익, 정약용은 토지 제도의 개혁을 주장하였다.', '정약용은 여전론을 내세워 공동 경작을 제안하였다.'),
    slide('silhak', '중상학파(북학파)', '유수원, 홍대용, 박지원, 박제가는 상공업 진흥과 기술 혁신을 주장하였다.', '박제가는 소비를 우물에 비유하며 절약만 강조하는 태도를 비판하였다.'),
    slide('silhak', '국학 연구', '한국의 역사, 지리, 언어를 연구하는 국학이 발달하였다.', '유득공의 『발해고』, 김정호의 대동여지도가 대표적이다.'),
    slide('front', '정리', '농업과 상업의 변화가 신분제를 흔들었고, 실학은 그 변화에 대한 개혁론이었다.'),
  ],
};

/** A biology review printed without heading fonts: each page's first line is its title. */
export const cellBiologyDeck: Deck = {
  name: 'cell-biology',
  korean: false,
  titleStyle: 'first-line',
  slides: [
    slide('front', 'Cell Biology Review', 'BIO 110 study guide', 'Units 4 to 7'),
    slide('membrane', 'The Plasma Membrane', 'The plasma membrane is a phospholipid bilayer with embedded proteins.', 'Hydrophobic tails face inward and hydrophilic heads face the water.'),
    slide('membrane', 'Membrane Proteins', 'Integral proteins span the bilayer; peripheral proteins sit on its surface.', 'Channel and carrier proteins move substances across the membrane.'),
    slide('membrane', 'Passive Transport', 'Diffusion moves solutes down their concentration gradient without energy.', 'Osmosis is the diffusion of water across a selectively permeable membrane.'),
    slide('membrane', 'Active Transport', 'Pumps use ATP to move ions against their concentration gradient.', 'The sodium-potassium pump keeps the cell membrane potential.'),
    slide('respiration', 'Mitochondria', 'Mitochondria are the site of aerobic cellular respiration.', 'Their inner membrane folds into cristae that hold the electron transport chain.'),
    slide('respiration', 'Glycolysis', 'Glycolysis splits glucose into two pyruvate in the cytoplasm.', 'It yields two ATP and two NADH per glucose.'),
    slide('respiration', 'The Krebs Cycle', 'Pyruvate is oxidised to acetyl CoA, which enters the Krebs cycle in the mitochondrial matrix.', 'The cycle releases carbon dioxide and produces NADH and FADH2.'),
    slide('respiration', 'Oxidative Phosphorylation', 'The electron transport chain pumps protons across the inner mitochondrial membrane.', 'ATP synthase uses the proton gradient to make about 30 ATP per glucose.'),
    slide('photosynthesis', 'Chloroplasts', 'Chloroplasts capture light energy in the thylakoid membranes.', 'Chlorophyll absorbs red and blue light and reflects green light.'),
    slide('photosynthesis', 'Light Reactions', 'Light reactions split water, release oxygen and make ATP and NADPH.', 'Photosystems II and I pass electrons along the thylakoid membrane.'),
    slide('photosynthesis', 'The Calvin Cycle', 'The Calvin cycle fixes carbon dioxide into sugar in the stroma.', 'Rubisco attaches carbon dioxide to ribulose bisphosphate.'),
    slide('photosynthesis', 'Factors Affecting Photosynthesis', 'Light intensity, carbon dioxide concentration and temperature limit the rate of photosynthesis.', 'The slowest factor limits the whole process.'),
    slide('division', 'The Cell Cycle', 'The cell cycle has interphase and the mitotic phase.', 'Checkpoints stop the cycle when DNA is damaged.'),
    slide('division', 'Mitosis', 'Mitosis separates sister chromatids into two identical nuclei.', 'Its stages are prophase, metaphase, anaphase and telophase.'),
    slide('division', 'Meiosis', 'Meiosis makes four haploid gametes from one diploid cell.', 'Crossing over in prophase I shuffles alleles between homologous chromosomes.'),
    slide('division', 'Cancer and the Cell Cycle', 'Cancer cells ignore checkpoints and divide without control.', 'Mutations in tumour suppressor genes such as p53 remove the brakes on division.'),
  ],
};

/** A Korean economics deck printed without heading fonts; parallel sections (수요의 …, 공급의 …). */
export const economicsDeck: Deck = {
  name: 'econ',
  korean: true,
  titleStyle: 'first-line',
  slides: [
    slide('front', '경제학원론 5주차: 시장의 작동', '2025학년도 1학기', '경영대학 이민호'),
    slide('d', '수요의 개념', '수요는 일정 기간 동안 소비자가 구매하고자 하는 재화의 양이다.', '가격이 오르면 수요량이 줄어드는 것을 수요의 법칙이라 한다.'),
    slide('d', '수요 곡선', '수요 곡선은 가격과 수요량의 관계를 나타내며 오른쪽 아래로 기울어진다.', '가격 이외의 요인이 변하면 수요 곡선 자체가 이동한다.'),
    slide('d', '수요 변화의 요인', '소득, 관련 재화의 가격, 기호, 미래에 대한 기대가 수요를 바꾼다.', '대체재 가격이 오르면 수요가 늘고, 보완재 가격이 오르면 수요가 준다.'),
    slide('d', '정상재와 열등재', '소득이 늘 때 수요가 느는 재화는 정상재, 수요가 주는 재화는 열등재이다.', '버스 이용은 소득이 늘면 줄어드는 경우가 많다.'),
    slide('s', '공급의 개념', '공급은 생산자가 팔고자 하는 재화의 양이다.', '가격이 오르면 공급량이 늘어나는 것을 공급의 법칙이라 한다.'),
    slide('s', '공급 곡선', '공급 곡선은 오른쪽 위로 기울어진다.', '생산 비용이 내려가면 공급 곡선이 오른쪽으로 이동한다.'),
    slide('s', '공급 변화의 요인', '생산 요소의 가격, 기술 수준, 공급자의 수, 기대가 공급을 바꾼다.', '기술이 발전하면 같은 가격에서 더 많이 생산할 수 있다.'),
    slide('s', '생산자의 기대와 공급', '가격이 오를 것으로 예상하면 생산자는 지금의 공급을 줄인다.', '농산물 비축이 대표적인 예이다.'),
    slide('e', '시장 균형', '수요량과 공급량이 같아지는 점에서 균형 가격과 균형 거래량이 정해진다.', '균형에서는 초과 수요도 초과 공급도 없다.'),
    slide('e', '초과 수요와 초과 공급', '가격이 균형보다 낮으면 초과 수요가 생겨 가격이 오른다.', '가격이 균형보다 높으면 초과 공급이 생겨 가격이 내린다.'),
    slide('e', '균형의 이동', '수요가 늘면 균형 가격과 거래량이 모두 오른다.', '공급이 늘면 균형 가격은 내리고 거래량은 늘어난다.'),
    slide('e', '가격 규제', '최고 가격제는 균형보다 낮은 가격을 강제해 초과 수요를 만든다.', '최저 임금제는 노동 시장에서 초과 공급을 만들 수 있다.'),
    slide('t', '가격 탄력성', '수요의 가격 탄력성은 가격 변화율에 대한 수요량 변화율의 비율이다.', '탄력성이 1보다 크면 탄력적, 작으면 비탄력적이라 한다.'),
    slide('t', '탄력성의 결정 요인', '대체재가 많을수록, 기간이 길수록 수요는 탄력적이다.', '생활필수품은 대체로 비탄력적이다.'),
    slide('t', '탄력성과 총수입', '수요가 탄력적이면 가격을 내릴 때 총수입이 늘어난다.', '비탄력적이면 가격을 올릴 때 총수입이 늘어난다.'),
    slide('t', '공급의 탄력성', '공급의 가격 탄력성은 생산을 얼마나 빨리 늘릴 수 있는지에 달려 있다.', '단기에는 공급이 비탄력적인 경우가 많다.'),
    slide('front', '다음 시간', '소비자 잉여와 생산자 잉여'),
  ],
};

/** A programming deck that repeats its outline slide before each section. */
export const pythonDeck: Deck = {
  name: 'python',
  korean: false,
  titleStyle: 'heading',
  slides: [
    slide('front', 'Programming in Python', 'Week 2', 'COMP 1010'),
    slide('front', 'Outline', 'Variables', 'Loops', 'Functions', 'Classes'),
    slide('v', 'Variables and Assignment', 'A variable names a value stored in memory.', 'x = 5 binds the name x to the integer 5.'),
    slide('v', 'Types of Values', 'Integers, floats, strings and booleans are built-in types.', 'type(x) tells the type of a value.'),
    slide('v', 'Dynamic Typing', 'A name can be rebound to a value of another type.', 'Python checks types when the code runs.'),
    slide('front', 'Outline', 'Variables', 'Loops', 'Functions', 'Classes'),
    slide('l', 'For Loops', 'A for loop repeats a block for every item of a sequence.', 'for i in range(10): print(i)'),
    slide('l', 'While Loops', 'A while loop repeats while its condition is true.', 'Make sure the condition eventually becomes false.'),
    slide('l', 'Break and Continue', 'break leaves the loop at once; continue skips to the next iteration.', 'Use them sparingly to keep loops readable.'),
    slide('front', 'Outline', 'Variables', 'Loops', 'Functions', 'Classes'),
    slide('f', 'Defining Functions', 'def square(n): return n * n defines a function.', 'A function groups code under a name so it can be reused.'),
    slide('f', 'Parameters and Arguments', 'Parameters are the names in the definition; arguments are the values passed in a call.', 'Default parameter values make arguments optional.'),
    slide('f', 'Return Values', 'return sends a value back to the caller.', 'A function without return gives None.'),
    slide('f', 'Scope', 'Names assigned inside a function are local to it.', 'global and nonlocal change where a name is bound.'),
    slide('front', 'Outline', 'Variables', 'Loops', 'Functions', 'Classes'),
    slide('c', 'Classes and Objects', 'A class defines a new type; an object is an instance of a class.', 'class Point: defines a class named Point.'),
    slide('c', 'The __init__ Method', '__init__ sets up a new object when it is created.', 'self refers to the object being created.'),
    slide('c', 'Methods', 'Methods are functions defined inside a class.', 'They receive the object as their first parameter, self.'),
    slide('c', 'Inheritance', 'A subclass inherits the methods of its parent class.', 'class Circle(Shape): makes Circle a subclass of Shape.'),
  ],
};

/** A Korean machine-learning deck whose sections open with "…이란?" slides. */
export const machineLearningDeck: Deck = {
  name: 'ml',
  korean: true,
  titleStyle: 'heading',
  slides: [
    slide('front', '머신러닝 기초 4강', 'AI융합학부 데이터사이언스 전공', '2025년 가을학기'),
    slide('sup', '지도학습이란?', '지도학습은 입력과 정답(label)이 짝지어진 데이터로 모델을 학습한다.', '회귀와 분류가 대표적인 지도학습 문제이다.'),
    slide('sup', '선형 회귀', '선형 회귀는 입력과 출력 사이의 관계를 직선으로 근사한다.', '평균제곱오차(MSE)를 최소화하는 가중치를 찾는다.'),
    slide('sup', '로지스틱 회귀', '로지스틱 회귀는 시그모이드 함수로 클래스에 속할 확률을 출력한다.', '이름은 회귀지만 분류 모델이다.'),
    slide('sup', '결정 트리', '결정 트리는 특성 값에 따라 데이터를 반복해서 나누어 예측한다.', '해석이 쉽지만 깊어지면 과적합되기 쉽다.'),
    slide('sup', '예제: 스팸 메일 분류', '메일의 단어 빈도를 특성으로 스팸 여부를 예측한다.', '정확도 95%의 분류기를 만들 수 있다.'),
    slide('unsup', '비지도학습이란?', '비지도학습은 정답 없이 데이터의 구조를 찾는다.', '군집화와 차원 축소가 대표적이다.'),
    slide('unsup', 'k-평균 군집화', 'k-means는 데이터를 k개의 군집으로 나누고 중심을 반복해서 갱신한다.', '초기 중심에 따라 결과가 달라질 수 있다.'),
    slide('unsup', '계층적 군집화', '가까운 군집끼리 차례로 합쳐 덴드로그램을 만든다.', '군집의 개수를 미리 정하지 않아도 된다.'),
    slide('unsup', '주성분 분석(PCA)', 'PCA는 분산이 가장 큰 방향으로 데이터를 투영해 차원을 줄인다.', '시각화와 잡음 제거에 쓰인다.'),
    slide('eval', '모델 평가', '학습에 쓰지 않은 데이터로 모델의 일반화 성능을 측정한다.', '데이터를 학습, 검증, 시험 세트로 나눈다.'),
    slide('eval', '과적합과 과소적합', '과적합은 학습 데이터에만 잘 맞고 새 데이터에서 성능이 떨어지는 현상이다.', '과소적합은 모델이 너무 단순해 학습 데이터도 잘 설명하지 못한다.'),
    slide('eval', '교차 검증', 'k-겹 교차 검증은 데이터를 k개로 나누어 번갈아 검증에 사용한다.', '데이터가 적을 때 성능 추정이 안정된다.'),
    slide('eval', '정밀도와 재현율', '정밀도는 양성 예측 중 실제 양성의 비율, 재현율은 실제 양성 중 찾아낸 비율이다.', 'F1 점수는 둘의 조화 평균이다.'),
    slide('nn', '인공 신경망', '신경망은 가중치로 연결된 뉴런 층으로 이루어진다.', '각 뉴런은 입력의 가중합에 활성화 함수를 적용한다.'),
    slide('nn', '활성화 함수', 'ReLU, 시그모이드, tanh가 자주 쓰인다.', '비선형 활성화 함수가 없으면 여러 층도 하나의 선형 변환이 된다.'),
    slide('nn', '역전파', '역전파는 오차의 기울기를 출력층에서 입력층 방향으로 전달한다.', '연쇄 법칙으로 각 가중치의 기울기를 계산한다.'),
    slide('nn', '경사 하강법과 학습률', '가중치를 기울기의 반대 방향으로 조금씩 갱신한다.', '학습률이 너무 크면 발산하고 너무 작으면 느리다.'),
    slide('front', '요약', '지도학습, 비지도학습, 모델 평가, 신경망의 기본 개념을 살펴보았다.'),
  ],
};

/** A history deck with a run of "Causes: …" slides and a discussion slide closing a section. */
export const frenchRevolutionDeck: Deck = {
  name: 'french-revolution',
  korean: false,
  titleStyle: 'heading',
  slides: [
    slide('front', 'HIST 202: Europe 1750-1850', 'Lecture 6: The French Revolution'),
    slide('causes', 'Causes: A Financial Crisis', 'War debts from the Seven Years War and the American Revolution emptied the treasury.', 'The nobility and clergy paid almost no taxes.'),
    slide('causes', 'Causes: The Three Estates', 'The First Estate was the clergy, the Second the nobility, the Third everyone else.', 'The Third Estate was 97 percent of the population.'),
    slide('causes', 'Causes: Enlightenment Ideas', 'Rousseau and Montesquieu questioned absolute monarchy.', 'Ideas of popular sovereignty spread through salons and pamphlets.'),
    slide('causes', 'Causes: Bread Prices', 'Poor harvests in 1788 doubled the price of bread.', 'Hungry crowds in Paris were ready to act.'),
    slide('1789', 'The Estates-General, 1789', 'Louis XVI called the Estates-General to raise taxes.', 'Voting by order gave the first two estates a majority.'),
    slide('1789', 'The Tennis Court Oath', 'Locked out, the Third Estate declared itself the National Assembly.', 'Its members swore not to separate until France had a constitution.'),
    slide('1789', 'Storming of the Bastille', 'On 14 July 1789 Parisians seized the Bastille fortress for its gunpowder.', 'The event became the symbol of the revolution.'),
    slide('1789', 'Declaration of the Rights of Man', 'The Assembly declared that men are born free and equal in rights.', 'It guaranteed liberty, property and resistance to oppression.'),
    slide('1789', 'Discussion', 'Was the revolution inevitable by 1789?'),
    slide('radical', 'The Radical Phase', 'France declared war on Austria in 1792 and the monarchy fell.', 'Louis XVI was executed in January 1793.'),
    slide('radical', 'Jacobins and Girondins', 'The Jacobins, led by Robespierre, pushed for radical change.', 'The Girondins were more moderate and were purged in 1793.'),
    slide('radical', 'The Reign of Terror', 'The Committee of Public Safety executed about 17,000 suspected enemies.', 'The guillotine became the instrument of revolutionary justice.'),
    slide('radical', 'Thermidor and the Directory', 'Robespierre was overthrown and executed in July 1794.', 'A weak five-man Directory governed until 1799.'),
    slide('napoleon', 'Napoleon Bonaparte', 'A young general who won fame in Italy and Egypt.', 'He seized power in the coup of 18 Brumaire in 1799.'),
    slide('napoleon', 'The Napoleonic Code', 'The code made all men equal before the law and protected property.', 'It limited the rights of women.'),
    slide('napoleon', 'The Empire at its Height', 'Napoleon crowned himself emperor in 1804 and dominated Europe.', 'The Continental System tried to block British trade.'),
    slide('napoleon', 'Downfall', 'The invasion of Russia in 1812 destroyed the Grand Army.', 'He was defeated at Waterloo in 1815 and exiled to Saint Helena.'),
    slide('front', 'Reading for Next Week', 'Chapter 7 in the textbook: the Congress of Vienna'),
  ],
};

/**
 * An operating-systems lecture (a newcomer's trial material) whose agenda has four items and whose last section is
 * two slides: its threads slides mention CPUs and scheduling in passing. Its titles are questions (`What Is a
 * Process?`), `Topic: subtitle` and abbreviations in brackets; its prose is full of words that name nothing on their
 * own (`what`, `time`, `new`, `moves`) beside multi-word terms (`round robin`, `time quantum`): the English concept
 * tests (test/english-concepts.test.ts) and the offline exam items (test/exam-offline-items.test.ts) read it too.
 */
export const operatingSystemsDeck: Deck = {
  name: 'os-processes',
  korean: false,
  titleStyle: 'heading',
  slides: [
    slide('front', 'CS 350 Operating Systems', 'Lecture 5: Processes, Threads and CPU Scheduling', 'Spring 2025', 'Dr. Maria Okafor'),
    slide('front', 'Agenda', 'Processes and the process control block', 'Threads and concurrency', 'CPU scheduling algorithms', 'Context switching costs'),
    slide('process', 'What Is a Process?', 'A process is a program in execution, with its own address space.', 'The address space holds the code, data, heap and stack segments.', 'The operating system tracks each process in a process control block (PCB).'),
    slide('process', 'Process States', 'A process moves between the states new, ready, running, waiting and terminated.', 'The scheduler moves a process from ready to running.', 'A process waiting for I/O moves to the waiting state until the I/O completes.'),
    slide('process', 'The Process Control Block', 'Definition: the PCB is the kernel data structure that stores everything the OS knows about a process.', 'It holds the process ID, the saved registers, the program counter, the state and open files.', 'On a context switch the kernel saves the running process into its PCB.'),
    slide('process', 'Creating Processes: fork and exec', 'On Unix, fork() creates a child process that is a copy of the parent.', 'exec() replaces the child\'s memory image with a new program.', 'The parent calls wait() to collect the child\'s exit status; otherwise the child becomes a zombie.'),
    slide('threads', 'Threads', 'Definition: a thread is a unit of execution inside a process.', 'Threads of one process share the address space, open files and heap.', 'Each thread has its own stack, registers and program counter.'),
    slide('threads', 'Why Use Threads?', 'Threads are cheaper to create and switch than processes.', 'They let one program use several CPU cores at once.', 'A server can handle each client request in its own thread.'),
    slide('threads', 'User-Level vs. Kernel-Level Threads', 'User-level threads are managed by a library without kernel support.', 'Kernel-level threads are scheduled by the operating system.', 'Linux uses a one-to-one model: each user thread maps to a kernel thread.'),
    slide('threads', 'Race Conditions', 'Definition: a race condition occurs when the result depends on the timing of threads that share data.', 'Example: two threads increment the same counter without a lock and an update is lost.', 'A mutex makes the critical section run in one thread at a time.'),
    slide('sched', 'CPU Scheduling Goals', 'The scheduler picks which ready process runs next on the CPU.', 'Goals: high CPU utilization, high throughput, low turnaround time, low waiting time and low response time.', 'Interactive systems care most about response time.'),
    slide('sched', 'First-Come, First-Served (FCFS)', 'FCFS runs processes in the order they arrive, without preemption.', 'It is simple but suffers from the convoy effect: short jobs wait behind a long job.'),
    slide('sched', 'Shortest Job First (SJF)', 'SJF runs the process with the shortest next CPU burst first.', 'It gives the minimum average waiting time for a given set of processes.', 'Its weakness: burst lengths must be predicted, and long jobs can starve.'),
    slide('sched', 'Round Robin (RR)', 'Round robin gives each ready process a time quantum, for example 10 ms, then preempts it.', 'A quantum that is too large behaves like FCFS; one that is too small wastes time on context switches.', 'Round robin gives good response time for interactive users.'),
    slide('sched', 'Scheduling Algorithms Compared', 'Algorithm | Preemptive | Strength | Weakness', 'FCFS | No | simple | convoy effect', 'SJF | No | minimal average waiting time | starvation', 'Round Robin | Yes | fair, good response time | context switch overhead', 'Priority | Either | important jobs first | starvation, fixed by aging'),
    slide('ctx', 'Context Switching', 'Definition: a context switch saves the state of the running process and restores the state of the next one.', 'It is pure overhead: no useful work is done during the switch.', 'Switching between threads of the same process is cheaper because the address space stays the same.'),
    slide('ctx', 'Measuring the Cost', 'A context switch typically takes a few microseconds.', 'Indirect costs are larger: caches and the TLB are cold after the switch.', 'Schedulers choose quantum lengths much larger than the switch time.'),
    slide('front', 'Summary', 'A process is a program in execution tracked by its PCB.', 'Threads share an address space but have their own stacks.', 'FCFS, SJF and round robin trade fairness, waiting time and overhead.'),
    slide('front', 'Questions?', 'Reading: OSTEP chapters 4-9', 'Next lecture: synchronization and deadlock'),
  ],
};

/** The decks the planner's rules were written against (development decks; the frozen ones are in slide-decks-heldout.ts). */
export const DECKS: readonly Deck[] = [aiSearchDeck, koreanHistoryDeck, cellBiologyDeck, economicsDeck, pythonDeck, machineLearningDeck, frenchRevolutionDeck, operatingSystemsDeck];

/** The deck as a real PDF: no outline, one slide per page. */
export function deckPdf(deck: Deck): Promise<Uint8Array> {
  const pages: FixturePage[] = deck.slides.map((entry) =>
    deck.titleStyle === 'heading' ? { heading: entry.title, lines: entry.lines } : { lines: [entry.title, ...entry.lines] },
  );
  // Pretendard for every deck: slides carry Greek letters and arrows that Helvetica's WinAnsi cannot draw.
  return buildPdf({ pages, korean: true, title: deck.slides[0]?.title ?? deck.name });
}

/**
 * 1-based first page of every content section, in order. A section starts at its first slide, or at the front
 * matter right before it in the middle of the deck (an outline slide repeated before each section opens it).
 */
export function sectionStarts(deck: Deck): Map<string, number> {
  const starts = new Map<string, number>();
  deck.slides.forEach((entry, index) => {
    if (entry.section === 'front' || starts.has(entry.section)) return;
    let start = index;
    while (start > 0 && starts.size > 0 && deck.slides[start - 1]?.section === 'front') start -= 1;
    starts.set(entry.section, start + 1);
  });
  return starts;
}
