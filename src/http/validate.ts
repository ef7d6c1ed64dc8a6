/**
 * Moved to src/boundary/ (shared with realtime/). This re-export keeps routers written against `./validate.js` on
 * branches made before the move compiling; remove it once they are merged.
 */
export { invalidPayload, parseOrThrow, withBody } from '../boundary/index.js';
