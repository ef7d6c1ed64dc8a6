import { storeKey as key } from '../store/index.js';

/** The data lifecycle's own store keys (the queue of rooms to purge is the quiz folder's: quizKeys.retentionRooms). */
export const dataKeys = {
  /** Lease of the one node running the retention purge. */
  retentionLease: () => key('retention', 'lease'),
};
