import { z } from 'zod';
import { drainIndex, type Store } from '../store/index.js';
import { mathKeys } from './math-keys.js';

/** What deletion reads of a math problem set: whose it is (its account's list and summary go with it). */
const MathSetOwner = z.object({ accountId: z.string() });

const ownerOf = (raw: string | null): string[] => {
  if (raw === null) return [];
  try {
    const parsed = MathSetOwner.safeParse(JSON.parse(raw));
    return parsed.success ? [parsed.data.accountId] : [];
  } catch {
    return []; // a corrupt record is still deleted by key
  }
};

/** What the data lifecycle (src/data/: deletion) needs of the math problem sets. */
export const mathLifecycle = {
  /** How many math problem sets were made from the material. */
  countByMaterial: (store: Store, materialId: string): Promise<number> => store.zcard(mathKeys.materialMathSets(materialId)),

  /** Every math problem set made from the material (found through its index), with each account's list and judgement summary of it. */
  deleteByMaterial: (store: Store, materialId: string): Promise<void> =>
    drainIndex(store, mathKeys.materialMathSets(materialId), async (setIds) => {
      const records = await store.mget(setIds.map((setId) => mathKeys.mathSet(setId)));
      const accounts = new Set(records.flatMap(ownerOf));
      await store.del(
        ...setIds.flatMap((setId) => [mathKeys.mathSet(setId), mathKeys.mathSetSummary(setId)]),
        ...[...accounts].flatMap((accountId) => [mathKeys.accountMathSets(accountId, materialId), mathKeys.accountMathSummary(accountId, materialId)]),
      );
    }),

  /** The index of the sets shared with the class (the sets stay: their owner's). */
  deleteByClass: async (store: Store, classId: string): Promise<void> => {
    await store.del(mathKeys.classMathSets(classId));
  },

  /** The class students' first short answers. */
  async deleteSessions(store: Store, sessionIds: string[]): Promise<void> {
    if (sessionIds.length > 0) await store.del(...sessionIds.map((sessionId) => mathKeys.sessionMathAnswers(sessionId)));
  },
};
