/**
 * Every task family of the pool, in the order the pool runs them: the multi-step compositions first (the pool's
 * purpose), then the single-step families (the easy end of a curriculum). A new family is a file in this folder,
 * built from `kit.ts`, and one line here.
 */
import type { CodeRunner } from '../../agent/tools';
import type { DataDocument, EnvironmentProfile } from '../../env/types';
import type { SemanticProfile } from '../../semantics/types';
import type { TaskSpec } from '../types';
import { attributionFamily } from './attribution';
import { pythonCorrelationFamily, sqlCorrelationFamily } from './correlation';
import { documentParameterFamily } from './documents';
import { documentMetricFamily } from './documentMetric';
import { crossSourceFamily } from './crossSource';
import { cleanAggregateFamily } from './cleanAggregate';
import { drillDownFamily } from './drillDown';
import { listItemsFamily } from './listItems';
import { statisticsFamilies } from './statistics';
import { cohortFamilies } from './cohort';
import { distributionSubsetFamily } from './distributionSubset';
import { partitionsFamily } from './partitions';
import { seriesFamily } from './series';
import { widePeriodsFamily } from './widePeriods';
import { parentGrainFamily } from './parentGrain';
import { joinCountTopKFamily, joinGroupContrastFamily, joinKeyFamily, joinTopKFamily } from './joins';
import type { FamilyContext, TaskFamily } from './kit';
import { filteredAggregateFamily, groupContrastFamily } from './lookups';
import { dataQualityFamily, outlierFamily, reconciliationFamily } from './quality';
import { conditionalRateFamily, groupRateFamily } from './rates';
import { changeOverTimeFamily } from './time';

export * from './kit';
export { drillDownFamily } from './drillDown';
export { listItemsFamily } from './listItems';
export { attributionFamily } from './attribution';
export { partitionsFamily } from './partitions';
export { seriesFamily } from './series';
export { widePeriodsFamily } from './widePeriods';
export { parentGrainFamily } from './parentGrain';
export { distributionSubsetFamily } from './distributionSubset';
export * from './statistics';
export * from './cohort';
export { filteredAggregateFamily, groupContrastFamily } from './lookups';
export { joinCountTopKFamily, joinGroupContrastFamily, joinKeyFamily, joinTopKFamily, rankingIsWellDefined, throughColumn } from './joins';
export { conditionalRateFamily, groupRateFamily, rateTargets } from './rates';
export { changeOverTimeFamily } from './time';
export { pythonCorrelationFamily, sqlCorrelationFamily, correlationIsSignal } from './correlation';
export { dataQualityFamily, outlierFamily, reconciliationFamily, compositeKeys, statedTotals } from './quality';
export { documentParameterFamily } from './documents';
export { documentMetricFamily } from './documentMetric';
export { crossSourceFamily } from './crossSource';
export { cleanAggregateFamily } from './cleanAggregate';

/** Multi-step task programs (2–6 executed steps, a sub-answer each). */
export const compositionFamilies: TaskFamily[] = [drillDownFamily, listItemsFamily, attributionFamily, partitionsFamily, seriesFamily, widePeriodsFamily, parentGrainFamily, distributionSubsetFamily, documentMetricFamily, crossSourceFamily, cleanAggregateFamily, ...statisticsFamilies, ...cohortFamilies];

/** Single-step families: lookups, joins, rates, time, correlation, quality, document rules. */
export const singleStepFamilies: TaskFamily[] = [
  filteredAggregateFamily,
  groupContrastFamily,
  joinKeyFamily,
  joinTopKFamily,
  joinCountTopKFamily,
  joinGroupContrastFamily,
  groupRateFamily,
  conditionalRateFamily,
  changeOverTimeFamily,
  sqlCorrelationFamily,
  pythonCorrelationFamily,
  outlierFamily,
  reconciliationFamily,
  documentParameterFamily,
  dataQualityFamily,
];

export const taskPoolFamilies: TaskFamily[] = [...compositionFamilies, ...singleStepFamilies];

/** The families whose tasks suit quick tests and demos: a few easy tasks over any environment. */
export const starterFamilies: TaskFamily[] = [filteredAggregateFamily, groupContrastFamily, joinTopKFamily, pythonCorrelationFamily];

export interface StarterTaskOptions {
  maxPerFamily?: number;
  families?: TaskFamily[];
  signal?: AbortSignal;
}

/** Builds tasks of the given families (the starter ones by default), deduplicated by id, without the pool's validation. */
export async function buildStarterTasks(
  environment: { profile: EnvironmentProfile; semantics: SemanticProfile; documents?: DataDocument[] },
  sandboxes: { sql: CodeRunner; python?: CodeRunner },
  options: StarterTaskOptions = {},
): Promise<TaskSpec[]> {
  const context: FamilyContext = { profile: environment.profile, semantics: environment.semantics, documents: environment.documents ?? [], sql: sandboxes.sql, python: sandboxes.python, maxPerFamily: options.maxPerFamily ?? 3, signal: options.signal };
  const seen = new Set<string>();
  const tasks: TaskSpec[] = [];
  for (const family of options.families ?? starterFamilies) {
    for (const task of await family.generate(context)) {
      if (seen.has(task.id)) continue;
      seen.add(task.id);
      tasks.push(task);
    }
  }
  return tasks;
}
