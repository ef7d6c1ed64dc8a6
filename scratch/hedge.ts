import { setsIn } from '../scripts/eval-exam-path.js';
import { dataDirectory } from '../scripts/eval-support.js';
import { assessAnswer } from '../src/judges/index.js';
import { confidenceReading } from '../src/judges/verdict-confidence.js';
const KO = /모르겠|모르겟|몰라|모름|모릅니다|잘\s*모르|기억(?:이)?\s*안|생각(?:이)?\s*안\s*나|헷갈/u;
const EN = /\b(?:i\s+)?(?:do\s*n'?t|dont|do\s+not)\s+know\b|\bidk\b|\bnot\s+sure\b|\bno\s+idea\b|\bforgot\b/iu;
for (const set of setsIn(dataDirectory())) {
  const t = { good: { n: 0, right: 0, sure: 0, sureRight: 0 }, bad: { n: 0, right: 0 } };
  for (const item of set.items) {
    if (!KO.test(item.answer) && !EN.test(item.answer)) continue;
    const d = assessAnswer({ question: item.question, reference: item.reference, answer: item.answer });
    const r = confidenceReading(d);
    if (d.label2 === 'good') { t.good.n++; if (item.label2 === 'good') t.good.right++; if (r.confidence >= 0.85) { t.good.sure++; if (item.label2 === 'good') t.good.sureRight++; } console.log('   ', set.name, item.label3, r.confidence, '|', item.answer.slice(0, 90)); }
    else { t.bad.n++; if (item.label2 === 'bad') t.bad.right++; }
  }
  console.log(set.name, JSON.stringify(t));
}
