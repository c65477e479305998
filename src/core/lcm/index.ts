/** The learned cost model: which configs expand a search node, learned from each step's reward and cost. */
export * from './types';
export { armId, validateArm, buildDefaultArms, defaultOperatorsFor, type DefaultArmOptions } from './arms';
export { buildFeatures, FEATURE_NAMES, FEATURE_DIMENSION } from './features';
export {
  LearnedCostModel,
  COST_MODEL_SCHEMA,
  COST_MODEL_VERSION,
  type LcmOptions,
  type CostModelJson,
  type ArmStateJson,
  type ArmStats,
  type CostModelDelta,
  type ArmDelta,
} from './LearnedCostModel';
export { createPriceCostEstimator, type PriceEstimateOptions } from './costEstimate';
export { saveCostModel, serializeCostModel, loadCostModel, costModelPath, type LoadedCostModel } from './persistence';
