import { $, element } from '../../ui/dom.js';
import type { MaterialOutline } from './lecture-view.js';

const progressBar = $('progress');
const progressLabel = $('progress-label');

/** The chapter progress bar and its label: one segment per chapter (done, current, to do). */
export function showProgress(
  material: MaterialOutline | undefined,
  state: { finished: boolean; currentIndex: number | undefined; isComplete(index: number): boolean },
): void {
  const chapters = material?.chapters ?? [];
  const total = chapters.length;
  const { finished } = state;
  const position = chapters.findIndex((chapter) => chapter.index === state.currentIndex);
  const done = finished ? total : chapters.filter((chapter) => state.isComplete(chapter.index)).length;
  const percent = total === 0 ? 0 : Math.round((done / total) * 100);
  if (progressBar.childElementCount !== total) {
    progressBar.replaceChildren(...chapters.map((chapter) => element('span', { className: 'segment', title: chapter.title })));
  }
  chapters.forEach((chapter, i) => {
    const segment = progressBar.children[i] as HTMLElement | undefined;
    if (!segment) return;
    const complete = finished || state.isComplete(chapter.index);
    segment.dataset.state = complete ? 'done' : i === position ? 'current' : 'todo';
  });
  progressBar.setAttribute('aria-valuenow', String(percent));
  progressBar.dataset.percent = String(percent);
  let label: string;
  if (finished) label = `${total}/${total}장 · 100% · 수업 완료`;
  else if (position < 0) label = `${total}개 챕터 · 시작 전`;
  else label = `${position + 1}/${total}장 · ${chapters[position]?.title ?? ''} · ${percent}%`;
  progressLabel.textContent = label;
  progressBar.setAttribute('aria-valuetext', label);
}
