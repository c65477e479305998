export * from './models';
export * from './taxonomy';
export * from './random';
export { readHistory, parseSchemaSummary, codeSimilarity } from './history';
export type { ReadHistory, SeenCall } from './history';
export * from './simulatedProvider';
export * from './stats';
