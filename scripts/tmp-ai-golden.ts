import { renderAllGolden } from './golden-lectures.js';
import { AI_COURSE_DECK } from './sample-decks.js';
const { files } = await renderAllGolden([AI_COURSE_DECK]);
const text = [...files.values()][0] ?? '';
const from = process.argv[2] ?? '## 퀴즈';
console.log(text.slice(text.indexOf(from)));
