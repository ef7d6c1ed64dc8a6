/**
 * The sample PDFs the golden lectures, quizzes and exams are written from (scripts/golden-lectures.ts, test/golden-lectures.test.ts):
 * the built-in Korean sample 기초 통계, an English slide deck exported with one generic bookmark per slide, and a
 * Korean physics handout with the pages that used to fool the offline lecture (a cover with a year and the course
 * name, a table of contents, formulas with subscripted variables, a worked example with numbers and units, an
 * administrative page). Built in code with fixed dates, so the same code gives the same bytes and the same lecture.
 */
import { buildPdf, buildSamplePdf, type FixturePage } from './pdf-fixtures.js';

/**
 * Breaks lines that would run off an A4 page (pdf-lib draws a line as one run, and text past the edge is lost to the
 * reader), at spaces, as a word processor would: Hangul is about a full em wide, Latin about half.
 */
function wrapped(pages: readonly FixturePage[], size: number): FixturePage[] {
  const room = 480 / size;
  const width = (text: string) => Array.from(text).reduce((sum, char) => sum + (/[\uac00-\ud7a3]/u.test(char) ? 0.95 : 0.55), 0);
  const wrap = (line: string): string[] => {
    const out: string[] = [];
    let current = '';
    for (const word of line.split(' ')) {
      const next = current === '' ? word : `${current} ${word}`;
      if (current !== '' && width(next) > room) {
        out.push(current);
        current = word;
      } else current = next;
    }
    return [...out, current];
  };
  return pages.map((page) => ({ ...page, lines: page.lines.flatMap(wrap) }));
}

export interface SampleDeck {
  /** Name of the golden file (test/golden/<name>.md). */
  name: string;
  /** The file name it is uploaded under: never the material title a student should see. */
  filename: string;
  build(): Promise<Uint8Array>;
  /**
   * Reading rules (test/golden/README.md): words only the cover, agenda, contents or administrative pages carry, which
   * no lecture, question, answer or choice may show; and code and formula lines, which stay whole lines and are
   * never blanked.
   */
  frontMatter?: readonly string[];
  code?: readonly string[];
}

const DECK_SLIDES: FixturePage[] = [
  // Cover: the course, the lecture, the lecturer and the term; nothing to teach.
  { heading: 'Describing Data', lines: ['Introduction to Statistics, Lecture 2', 'Prof. Jane Miller', 'Department of Mathematics', 'Fall Semester 2024'] },
  {
    heading: 'Agenda',
    lines: ['1. Variables and data types', '2. Measures of center', '3. Measures of spread', '4. The normal distribution', '5. Summary'],
  },
  {
    heading: 'Variables and Data Types',
    lines: [
      'A variable is a characteristic that differs from one individual to the next.',
      'A categorical variable places each individual into a group, such as blood type.',
      'A quantitative variable takes numerical values, such as height in centimetres.',
      '• Categorical: eye colour, major, yes or no answers',
      '• Quantitative: age, income, exam score',
    ],
  },
  {
    heading: 'The Mean',
    lines: [
      'The mean is the sum of the observations divided by their number.',
      'x̄ = (x1 + x2 + ... + xn) / n',
      'For the scores 4, 8 and 9 the mean is (4 + 8 + 9) / 3 = 7.',
      'The mean is the balance point of the data.',
    ],
  },
  {
    heading: 'The Median and Outliers',
    lines: [
      'The median is the middle value when the observations are listed in order.',
      'An outlier is an observation that falls far from the rest of the data.',
      'One very large income can pull the mean up while the median barely moves.',
      'For skewed data the median describes a typical value better than the mean.',
    ],
  },
  {
    heading: 'Measures of Spread',
    lines: [
      'The range is the difference between the largest and the smallest observation.',
      'The interquartile range (IQR) is the spread of the middle half of the data.',
      'IQR = Q3 - Q1',
      'Unlike the range, the IQR is resistant to outliers.',
    ],
  },
  {
    heading: 'Standard Deviation',
    lines: [
      'The standard deviation measures the typical distance of the observations from the mean.',
      's = sqrt( Σ (xi - x̄)² / (n - 1) )',
      'A small standard deviation means the values cluster closely around the mean.',
      'The variance is the square of the standard deviation.',
    ],
  },
  {
    heading: 'The Normal Distribution',
    lines: [
      'The normal distribution is a symmetric, bell-shaped distribution described by its mean and standard deviation.',
      'About 68% of the values lie within one standard deviation of the mean.',
      'About 95% lie within two standard deviations, and 99.7% within three.',
      'This is called the empirical rule.',
    ],
  },
  {
    heading: 'Summary',
    lines: [
      '• The mean and the median describe the center of the data.',
      '• The range, the IQR and the standard deviation describe its spread.',
      '• Many measurements follow the normal distribution.',
      'Next week: sampling distributions.',
    ],
  },
];

/** The English deck: cover, agenda, seven content slides; bookmarks are "Slide 1" … "Slide 9", as slide exports write. */
export function englishDeckPdf(): Promise<Uint8Array> {
  return buildPdf({
    pages: wrapped(DECK_SLIDES, 13),
    outline: DECK_SLIDES.map((_, index) => ({ title: `Slide ${index + 1}`, pageIndex: index })),
    // Pretendard for x̄, Σ and ², which Helvetica's WinAnsi encoding cannot draw.
    korean: true,
    headingSize: 26,
    bodySize: 13,
  });
}

const HANDOUT_PAGES: FixturePage[] = [
  { heading: '일반물리학 I', lines: ['2024년 1학기 강의 노트 3주차', '물리학과 김민수 교수', '한국대학교 자연과학대학'] },
  {
    heading: '목차',
    lines: ['1. 위치와 변위 .......... 3', '2. 속도와 가속도 .......... 4', '3. 등가속도 운동 .......... 5', '4. 뉴턴의 운동 법칙 .......... 6', '5. 평가 방법 .......... 7'],
  },
  {
    heading: '1. 위치와 변위',
    lines: [
      '물체의 위치는 기준점에서 물체까지의 거리와 방향으로 나타냅니다.',
      '변위는 물체의 처음 위치에서 나중 위치까지의 위치 변화입니다.',
      'Δx = x₂ − x₁',
      '변위는 크기와 방향을 모두 가진 벡터량이고, 이동 거리는 크기만 가진 스칼라량입니다.',
      '예를 들어 물체가 x₁ = 2 m에서 x₂ = −3 m로 움직이면 변위는 −5 m입니다.',
      '이때 물체는 음의 방향으로 5 m 움직였습니다.',
    ],
  },
  {
    heading: '2. 속도와 가속도',
    lines: [
      '평균 속도는 변위를 걸린 시간으로 나눈 값입니다.',
      'v = Δx / Δt',
      '시간 간격을 아주 짧게 줄이면 한 순간의 속도를 얻는데, 이를 순간 속도라고 합니다.',
      '가속도는 단위 시간 동안의 속도 변화입니다.',
      'a = Δv / Δt',
      '가속도의 단위는 m/s²이며, 속도가 줄어들 때 가속도는 운동 방향과 반대입니다.',
    ],
  },
  {
    heading: '3. 등가속도 운동',
    lines: [
      '가속도가 일정한 운동을 등가속도 운동이라고 합니다.',
      'v = v₀ + at',
      'x = x₀ + v₀t + ½at²',
      '자유 낙하하는 물체는 중력 가속도 g = 9.8 m/s²로 등가속도 운동을 합니다.',
      '예제: 정지해 있던 자동차가 2 m/s²의 가속도로 5초 동안 움직였습니다.',
      'v = 0 + 2 × 5 = 10 m/s',
      'x = ½ × 2 × 5² = 25 m',
      '따라서 5초 뒤 자동차의 속력은 10 m/s이고, 그동안 25 m를 움직입니다.',
    ],
  },
  {
    heading: '4. 뉴턴의 운동 법칙',
    lines: [
      '관성의 법칙: 물체에 알짜힘이 작용하지 않으면 정지한 물체는 계속 정지해 있고, 움직이는 물체는 등속 직선 운동을 합니다.',
      '가속도의 법칙: 물체의 가속도는 알짜힘에 비례하고 질량에 반비례합니다.',
      'F = ma',
      '힘의 단위는 뉴턴(N)이며, 1 N은 질량 1 kg인 물체를 1 m/s²로 가속시키는 힘입니다.',
      '작용 반작용의 법칙: 한 물체가 다른 물체에 힘을 주면, 다른 물체도 크기가 같고 방향이 반대인 힘을 줍니다.',
    ],
  },
  {
    heading: '5. 평가 방법',
    lines: [
      '중간고사 30%, 기말고사 40%, 과제 20%, 출석 10%',
      '출석은 매 수업 시작 때 전자출결로 확인합니다.',
      '결석이 4회 이상이면 성적과 관계없이 F 학점입니다.',
      '질문은 수요일 오후 2시에 교수 연구실(과학관 301호)로 찾아오세요.',
    ],
  },
];

/** The Korean physics handout: no PDF title and no outline, so titles and chapters come from its headings. */
export function physicsHandoutPdf(): Promise<Uint8Array> {
  return buildPdf({ pages: wrapped(HANDOUT_PAGES, 12), korean: true, headingSize: 22, bodySize: 12 });
}

/**
 * An AI course's lecture deck as a slide export gives it (no bookmarks, one heading per slide, the course and the
 * slide number in every footer): a cover with the course code and the lecturer, an agenda, slides on search and A*,
 * heuristics, A*'s pseudocode (a code block), local search, genetic algorithms with a worked crossover, gradient
 * ascent with its update rule (a formula), and a summary. Figure labels come out of a slide as loose tokens, as real
 * extraction gives them.
 */
const AI_SLIDES: FixturePage[] = [
  {
    heading: 'CS 3600: Introduction to Artificial Intelligence',
    lines: ['Lecture 3: Search and Optimization', 'Prof. Alan Reyes', 'School of Computing, Spring 2025', '+1 +100'],
  },
  {
    heading: 'Outline',
    lines: ['• Search problems', '• A* search and heuristics', '• Local search and hill climbing', '• Genetic algorithms', '• Gradient ascent'],
  },
  {
    heading: 'Search Problems',
    lines: [
      'A search problem consists of a state space, a start state, a set of actions, a transition model, a goal test and a path cost.',
      'A solution is a sequence of actions that leads from the start state to a goal state.',
      'Uninformed search strategies, such as breadth-first search, use no information about the goal beyond the goal test.',
      'Breadth-first search expands the shallowest node first and finds the shortest path when every action costs the same.',
    ],
  },
  {
    heading: 'A* Search',
    lines: [
      'A* search is an informed search algorithm that expands the node with the lowest value of f(n).',
      'f(n) = g(n) + h(n)',
      'Here g(n) is the cost of the path from the start node to n, and h(n) is the estimated cost from n to the goal.',
      'A* keeps the frontier in a priority queue ordered by f.',
      'S A B G',
      '1 4 2 5 3',
    ],
  },
  {
    heading: 'Heuristics',
    lines: [
      'A heuristic is a function that estimates the cost of the cheapest path from a state to a goal.',
      'An admissible heuristic never overestimates the true cost of reaching the goal.',
      'With an admissible heuristic, A* tree search is optimal.',
      'A consistent heuristic satisfies h(n) ≤ c(n, a, n′) + h(n′) for every action a.',
      'For route finding, the straight-line distance to the goal is an admissible heuristic.',
    ],
  },
  {
    heading: 'A* in Code',
    lines: [
      'def a_star(start, goal, h):',
      '    frontier = PriorityQueue()',
      '    frontier.push(start, h(start))',
      '    while frontier:',
      '        node = frontier.pop()',
      '        if node == goal:',
      '            return path(node)',
      '        for child in expand(node):',
      '            frontier.push(child, g(child) + h(child))',
    ],
  },
  {
    heading: 'Local Search',
    lines: [
      'Local search algorithms keep a single current state and move to neighboring states.',
      'They use very little memory and often find good solutions in large state spaces.',
      'Hill climbing moves to the neighbor with the highest value and stops when no neighbor is better.',
      'A local maximum is a state that is better than all of its neighbors but worse than the global maximum.',
      'Hill climbing can get stuck in a local maximum, so random restarts are often used.',
    ],
  },
  {
    heading: 'Genetic Algorithms',
    lines: [
      'A genetic algorithm is a local search method inspired by natural selection.',
      'It keeps a population of candidate solutions, called individuals.',
      'A fitness function measures how good each individual is.',
      'Selection chooses parents with a probability proportional to their fitness.',
      'Crossover combines parts of two parents to create a child.',
      'Mutation randomly changes a small part of an individual, which keeps diversity in the population.',
    ],
  },
  {
    heading: 'Crossover Example',
    lines: ['Parent 1: 1 0 1 1 | 0 0 1 0', 'Parent 2: 0 1 1 0 | 1 1 0 1', 'Child: 1 0 1 1 | 1 1 0 1', 'The crossover point is chosen at random.'],
  },
  {
    heading: 'Gradient Ascent',
    lines: [
      'Gradient ascent climbs a continuous objective function by following its gradient.',
      'The gradient is the vector of partial derivatives, and it points in the direction of steepest increase.',
      'θ ← θ + α · ∂f/∂θ',
      'The learning rate α controls the size of each step.',
      'If the learning rate is too large, the updates overshoot the maximum; if it is too small, progress is slow.',
      'Gradient descent is the same method applied to minimizing a loss function.',
    ],
  },
  {
    heading: 'Summary',
    lines: [
      '• A* combines the path cost with a heuristic estimate.',
      '• Admissible heuristics keep A* optimal.',
      '• Genetic algorithms evolve a population with selection, crossover and mutation.',
      '• Gradient ascent follows the gradient of a continuous objective.',
      'Next lecture: adversarial search',
    ],
  },
];

/** The AI course deck: headings only (no outline, no PDF title), a footer with the course and the slide number. */
export function aiCourseDeckPdf(): Promise<Uint8Array> {
  const pages = AI_SLIDES.map((slide, index) => ({ ...slide, lines: [...slide.lines, '', `CS 3600 · Spring 2025    ${index + 1}`] }));
  return buildPdf({ pages: wrapped(pages, 12), korean: true, headingSize: 22, bodySize: 12 });
}

export const SAMPLE_DECKS: readonly SampleDeck[] = [
  {
    name: 'sample-basic-statistics',
    filename: 'sample_v2_final.pdf',
    build: buildSamplePdf,
    frontMatter: ['세 개의 장으로 이루어져', '확률과 통계의 첫걸음'],
    code: ['x̄ = (x₁ + x₂ + … + xₙ) / n', 'Σ (xᵢ − x̄) = 0'],
  },
  {
    name: 'english-slide-deck',
    filename: 'lecture02-export.pdf',
    build: englishDeckPdf,
    frontMatter: ['Introduction to Statistics', 'Jane Miller', 'Department of Mathematics', 'Fall Semester', 'Agenda', 'Next week'],
    code: ['x̄ = (x1 + x2 + ... + xn) / n', 'IQR = Q3 - Q1', 's = sqrt( Σ (xi - x̄)² / (n - 1) )'],
  },
  {
    name: 'physics-handout',
    filename: 'physics_week3 (1).pdf',
    build: physicsHandoutPdf,
    frontMatter: ['김민수', '1학기', '목차', '평가 방법', '중간고사', '출석', '연구실', '한국대학교', '결석'],
    code: ['Δx = x₂ − x₁', 'v = Δx / Δt', 'a = Δv / Δt', 'v = v₀ + at', 'x = x₀ + v₀t + ½at²', 'F = ma'],
  },
  {
    name: 'ai-course-deck',
    filename: 'CS3600_L03_search_optimization.pdf',
    build: aiCourseDeckPdf,
    frontMatter: ['CS 3600', 'Introduction to Artificial Intelligence', 'Alan Reyes', 'School of Computing', 'Spring 2025', '+1 +100', 'Outline', 'Next lecture'],
    code: [
      'f(n) = g(n) + h(n)',
      'def a_star(start, goal, h):',
      'frontier = PriorityQueue()',
      'frontier.push(start, h(start))',
      'while frontier:',
      'node = frontier.pop()',
      'if node == goal:',
      'return path(node)',
      'for child in expand(node):',
      'frontier.push(child, g(child) + h(child))',
      'θ ← θ + α · ∂f/∂θ',
    ],
  },
];

/** Every deck the defect count reads. */
export const MEASURED_DECKS: readonly SampleDeck[] = SAMPLE_DECKS;

/**
 * A deck of another subject, for reading only (never tuned on): a biology handout on cells. Its items in
 * eval/quiz-judge-heldout.jsonl are the held-out part of the quiz-judge set.
 */
const BIOLOGY_SLIDES: FixturePage[] = [
  { heading: 'BIO 101: Cell Biology', lines: ['Week 4: Membranes and Energy', 'Dr. Maria Santos', 'Department of Biology, Fall 2025'] },
  {
    heading: 'The Cell Membrane',
    lines: [
      'The cell membrane is a phospholipid bilayer that separates the inside of the cell from its surroundings.',
      'Membrane proteins carry ions and large molecules across the bilayer.',
      'Diffusion is the movement of molecules from a region of high concentration to a region of low concentration.',
      'Osmosis is the diffusion of water across a selectively permeable membrane.',
      'Active transport moves molecules against their concentration gradient and uses energy from ATP.',
    ],
  },
  {
    heading: 'Mitochondria and Respiration',
    lines: [
      'A mitochondrion is an organelle that produces most of the energy of the cell.',
      'Cellular respiration breaks down glucose and stores its energy in ATP.',
      'Glycolysis splits glucose into two molecules of pyruvate in the cytoplasm.',
      'The electron transport chain uses oxygen to produce most of the ATP of cellular respiration.',
    ],
  },
  {
    heading: 'Photosynthesis',
    lines: [
      'Photosynthesis converts light energy into chemical energy stored in glucose.',
      'A chloroplast is the organelle where photosynthesis takes place.',
      'Chlorophyll absorbs red and blue light and reflects green light.',
      'The Calvin cycle uses carbon dioxide to build sugars.',
    ],
  },
];

export function biologyHandoutPdf(): Promise<Uint8Array> {
  return buildPdf({ pages: wrapped(BIOLOGY_SLIDES, 12), korean: true, headingSize: 22, bodySize: 12 });
}

/** Decks for reading and held-out evaluation only: never in the golden files, never tuned on. */
export const READING_DECKS: readonly SampleDeck[] = [{ name: 'biology-handout', filename: 'bio101_week4.pdf', build: biologyHandoutPdf }];
