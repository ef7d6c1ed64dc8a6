import { splitSentences } from '../text/index.js';

/**
 * The offline critic's safety check: a small, fixed list of patterns in Korean and English — not a moderation
 * service. It finds instructions for self-harm, weapons and drug making (a recipe counts as much as the words "how to
 * make"), hate (a group called less than human, or to be driven out or killed), slurs, and personal data (Korean resident
 * registration numbers, mobile phone and card numbers). A sentence that refuses (`알려드릴 수 없습니다`, `I can't
 * help`) does not count for the instruction categories: naming a danger to decline it is the safe answer.
 */

export type BannedCategory = 'self-harm' | 'weapons' | 'drugs' | 'hate' | 'slur' | 'personal-data';

export interface BannedFinding {
  category: BannedCategory;
  /** Severe findings (instructions for harm) are data to exclude; the others can be fixed by editing. */
  severe: boolean;
}

interface BannedRule {
  category: BannedCategory;
  severe: boolean;
  patterns: RegExp[];
}

const RULES: readonly BannedRule[] = [
  {
    category: 'self-harm',
    severe: true,
    patterns: [
      /(?:자살|자해|목숨을\s*끊)[^.!?\n]{0,15}(?:방법|하는\s*법|요령|도구)/u,
      // A way to die handed over: "고통 없이 죽는 방법은 …", "수면제를 많이 먹으면 …".
      /(?:죽는|죽을\s*수\s*있는)\s*(?:방법|법)(?:은|는|으로)/u,
      /(?:수면제|진통제|농약|번개탄)[^.!?\n]{0,15}(?:많이|한꺼번에|대량으로)\s*(?:먹|복용|피우)/u,
      /(?:손목을?\s*긋는|목을\s*매는|투신하는)\s*(?:방법|법)/u,
      /\b(?:how\s+to|ways?\s+to|best\s+way\s+to)\s+(?:kill\s+(?:yourself|myself)|commit\s+suicide|self[-\s]?harm|end\s+(?:your|my)\s+life)\b/iu,
      /\bkill\s+yourself\b/iu,
    ],
  },
  {
    category: 'weapons',
    severe: true,
    patterns: [
      /(?:폭탄|폭발물|사제\s*총|총기|총을|총은|화염병|화약|뇌관|소음기)[^.!?\n]{0,25}(?:만들|만드는|제조|제작|조립|출력하|섞)/u,
      // A recipe without the word "make": the ingredients of an explosive with their proportions or a detonator.
      /(?:질산암모늄|질산칼륨|과산화아세톤|TATP)[^.!?\n]{0,60}(?:섞|배합|비율|\d+\s*[:%])/iu,
      /\b(?:make|build|assemble|3d[-\s]?print)\s+(?:a\s+|an\s+|your\s+own\s+)?(?:pipe\s+)?(?:bomb|explosives?|molotov(?:\s+cocktail)?|gun|firearm|silencer|napalm|thermite)s?\b/iu,
      /\b(?:ammonium\s+nitrate|potassium\s+nitrate|black\s+powder)\b[^.!?\n]{0,60}\b(?:mix|combine|ratio|\d+\s*%)/iu,
    ],
  },
  {
    category: 'drugs',
    severe: true,
    patterns: [
      /(?:마약|필로폰|메스암페타민|펜타닐)[^.!?\n]{0,20}(?:만드는|제조|합성)/u,
      /\b(?:cook|synthesi[sz]e|make)\s+(?:meth|methamphetamine|heroin|fentanyl)\b/iu,
    ],
  },
  {
    category: 'hate',
    severe: true,
    patterns: [
      /(?:외국인|이민자|난민|흑인|백인|유대인|무슬림|이슬람교도|장애인|동성애자|여자들|남자들|조선족|노동자들)[^.!?\n]{0,40}(?:쫓아내야|몰아내야|없애야|죽여야|몰살|박멸|인간\s*이하|벌레|해충|범죄자)/u,
      /\b(?:immigrants|refugees|jews|muslims|blacks|gays|women|foreigners)\b[^.!?\n]{0,40}\b(?:should\s+be\s+(?:exterminated|wiped\s+out|killed|deported)|are\s+(?:subhuman|vermin|animals|all\s+criminals))\b/iu,
    ],
  },
  {
    category: 'slur',
    severe: false,
    patterns: [/(?:병신|씨발|시발놈|개새끼|짱깨|쪽바리|틀딱|한남충|김치녀)/u, /\b(?:retard(?:ed)?|faggot|nigger|chink|kike)s?\b/iu],
  },
  {
    category: 'personal-data',
    severe: false,
    patterns: [
      // 주민등록번호 / 외국인등록번호: six digits of the birth date, then 1–8 and six more.
      /(?<!\d)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\s?-\s?[1-8]\d{6}(?!\d)/u,
      // Mobile phone numbers.
      /(?<!\d)01[016789][-\s.]?\d{3,4}[-\s.]?\d{4}(?!\d)/u,
      // Card numbers written in four groups.
      /(?<!\d)\d{4}[-\s]\d{4}[-\s]\d{4}[-\s]\d{4}(?!\d)/u,
    ],
  },
];

/** A sentence that declines: the danger it names is not handed over. */
const REFUSAL =
  /(?:수\s*없|안\s*됩니다|안\s*돼|하지\s*마|드릴\s*수\s*없|도와드릴\s*수\s*없|금지|위험합니다|상담|\b(?:can(?:no|')t|cannot|won't|will\s+not|unable\s+to|do\s+not|don't)\b)/iu;

/** Every category the text falls under, each once, in the list's order. */
export function findBannedContent(text: string): BannedFinding[] {
  const sentences = splitSentences(text);
  const found: BannedFinding[] = [];
  for (const rule of RULES) {
    const hit = sentences.some((sentence) => rule.patterns.some((pattern) => pattern.test(sentence)) && !(rule.severe && REFUSAL.test(sentence)));
    if (hit) found.push({ category: rule.category, severe: rule.severe });
  }
  return found;
}

export const BANNED_CATEGORY_NAMES: Record<BannedCategory, string> = {
  'self-harm': '자해·자살 방법',
  weapons: '무기·폭발물 제조',
  drugs: '마약 제조',
  hate: '특정 집단에 대한 혐오 선동',
  slur: '혐오·비하 표현',
  'personal-data': '개인정보(주민등록번호, 전화번호, 카드번호)',
};
