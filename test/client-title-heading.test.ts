/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - LO5 — The title once on the page. The classroom shows a chapter's title in the chapter's head only: the lecture
 *   text's own leading `# <title>` (the offline lecture's and a model's) is not rendered …
 */
import { describe, expect, it } from 'vitest';
import { withoutTitleHeading } from '../client/pages/classroom/title-heading.js';

/** LO5 (test/SPEC.md, "Offline lecture"): the classroom shows a chapter's title once, in the chapter's head. */
describe('the lecture text under a chapter head', () => {
  it('LO5 drops a leading heading that repeats the chapter title, also while it streams in; keeps any other heading', () => {
    expect(withoutTitleHeading('# 평균의 의미\n\n먼저 평균을 살펴보겠습니다.', '평균의 의미')).toBe('\n먼저 평균을 살펴보겠습니다.');
    expect(withoutTitleHeading('## **Variables and Data Types · The Mean**  \nA variable is…', 'Variables and Data Types · The Mean')).toBe('A variable is…');
    // Streaming: `#`, then part of the title, then the whole line without its newline yet: nothing shown.
    for (const partial of ['#', '# 평', '# 평균의', '# 평균의 의미']) expect(withoutTitleHeading(partial, '평균의 의미')).toBe('');
    // Another heading (or prose) stays, once its line is complete or it stops matching the title.
    expect(withoutTitleHeading('# 들어가며\n본문', '평균의 의미')).toBe('# 들어가며\n본문');
    expect(withoutTitleHeading('# 분산', '평균의 의미')).toBe('# 분산');
    expect(withoutTitleHeading('평균의 의미를 봅시다.', '평균의 의미')).toBe('평균의 의미를 봅시다.');
    expect(withoutTitleHeading('# 평균의 의미\n', '')).toBe('# 평균의 의미\n');
  });
});
