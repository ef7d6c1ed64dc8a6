/**
 * A made-up chapter text as the PDF reader gives it (pages joined by blank lines, a running footer on each page): a
 * cover, a table of contents, then two chapters of two pages each with a heading on every page. Headings end with
 * and without a final consonant (받침) so the particles of the lecture's connectives are checked both ways.
 */
export const MADE_UP_PAGES: readonly string[] = [
  ['자료구조 입문', '2025학년도 1학기', '컴퓨터공학과 김교수'].join('\n'),
  ['목차', '1장 배열 ........ 3', '2장 연결 리스트 ........ 5', '부록 연습문제 ........ 7'].join('\n'),
  [
    '1장 배열',
    '배열은 같은 자료형의 값을 연속된 메모리에 차례로 저장하는 자료구조입니다.',
    '배열의 원소는 인덱스로 곧바로 찾을 수 있어서 읽기가 빠릅니다.',
    'a[i] = 시작 주소 + i × 원소 크기',
    '인덱스는 0부터 시작하므로 마지막 원소의 인덱스는 길이보다 하나 작습니다.',
  ].join('\n'),
  [
    '배열의 한계',
    '배열은 만들 때 크기가 정해지므로 원소를 더 넣으려면 더 큰 배열로 옮겨야 합니다.',
    '중간에 원소를 끼워 넣으면 뒤의 원소를 모두 한 칸씩 밀어야 해서 느립니다.',
  ].join('\n'),
  [
    '2장 연결 리스트',
    '연결 리스트는 각 노드가 값과 다음 노드의 주소를 함께 가지는 자료구조입니다.',
    '노드는 메모리 어디에나 있을 수 있고, 주소를 따라가며 차례로 방문합니다.',
    '연결 리스트의 중간에 노드를 넣을 때는 주소 두 개만 바꾸면 됩니다.',
  ].join('\n'),
  [
    '스택',
    '스택은 마지막에 넣은 값을 가장 먼저 꺼내는 자료구조입니다.',
    '연결 리스트의 맨 앞에서만 넣고 빼면 스택을 쉽게 만들 수 있습니다.',
  ].join('\n'),
].map((page, index) => `${page}\n자료구조 입문 · ${index + 1}`);

export const MADE_UP = MADE_UP_PAGES.join('\n\n');
