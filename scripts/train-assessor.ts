import path from 'node:path';
import { FEATURE_NAMES } from '../src/judges/index.js';
import { fitModel, prepareItems } from './assessor-training.js';
import { DEV_FILES, dataDirectory, loadItems, round } from './eval-support.js';

/**
 * Refits the assessor's constants on the three English dev files pooled and prints them, ready to paste into
 * src/judges/assessor-model.ts. Deterministic: the same files give the same numbers.
 * Usage: npm run train:assessor [-- <data dir>]
 */
const directory = dataDirectory();
const entries = DEV_FILES.flatMap((file) => prepareItems(loadItems(path.join(directory, file)), file));
const model = fitModel(entries);
const part = (values: { weights: readonly number[]; bias: number }): string =>
  `{\n    weights: [${values.weights.map((weight) => round(weight)).join(', ')}],\n    bias: ${round(values.bias)},\n  }`;
console.log(JSON.stringify({ items: entries.length, features: FEATURE_NAMES, model }));
console.log(
  `export const ASSESSOR_MODEL: AssessorModel = {\n  good: ${part(model.good)},\n  incorrect: ${part(model.incorrect)},\n` +
    `  correctThreshold: ${model.correctThreshold},\n  incorrectThreshold: ${model.incorrectThreshold},\n};`,
);
