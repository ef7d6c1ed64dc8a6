/**
 * The Critic Grader (seed 004): grades an instruction/input/output case on five criteria. It calls the model, so it
 * is a feature folder of its own rather than part of the pure `judges/` leaf. The HTTP
 * route and, later, the quality console call `CriticGrader.grade`.
 */
export {
  CRITIC_TASK,
  CRITIC_TEMPERATURE,
  CriticGradeInput,
  CriticGrader,
  CriticReplySchema,
  DEFAULT_CRITERIA_NAME,
  HEURISTIC_PREFIX,
  knownFailureTypes,
  renderCriticPrompt,
  type CriticGradeOptions,
  type CriticGraderOptions,
  type CriticReply,
  type CriticResult,
} from './critic-agent.js';
export { criticOfflineTasks, gradeOffline } from './critic-offline.js';
export { WEIGHT_SUM_TOLERANCE, checkWeights, clampScore, clampScores, roundGrade, weightedGrade, type WeightCheck } from './rubric.js';
export { findBannedContent, type BannedCategory, type BannedFinding } from './banned-content.js';
