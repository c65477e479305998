/**
 * Benchmark environments: Spider, BIRD, LiveSQLBench-style and SpreadsheetBench folders opened as ordinary data
 * environments, with the benchmark's own questions recorded as contamination references
 * (`<environment>/.toffee/contamination.json`) for the task pool's audit.
 */
import { loadEnvironment } from '../env/index';
import type { LoadOptions } from '../env/types';
import { prepareBenchmarkEnvironment } from './prepare';
import { scanBenchmark } from './scan';
import type { BenchmarkCatalog, OpenedBenchmarkEnvironment } from './types';

export * from './types';
export { scanBenchmark, domainOf } from './scan';
export { sampleEntries, schemaSizeOf } from './sample';
export { prepareBenchmarkEnvironment, contaminationOf, defaultEnvironmentsDir, environmentFolderName, PROVENANCE_FILE } from './prepare';
export { CONTAMINATION_FILE, contaminationFileOf, readContaminationReferences, writeContaminationReferences } from './contamination';

/** Finds an entry by id (exact, else case-insensitive), or throws with the ids on offer. */
export function findEntry(catalog: BenchmarkCatalog, id: string) {
  const entry = catalog.entries.find((e) => e.id === id) ?? catalog.entries.find((e) => e.id.toLowerCase() === id.toLowerCase());
  if (!entry) {
    const ids = catalog.entries.map((e) => e.id);
    const shown = ids.slice(0, 20).join(', ') + (ids.length > 20 ? `, … (${ids.length} in all)` : '');
    throw new Error(`no environment '${id}' in ${catalog.root}${ids.length > 0 ? `; available: ${shown}` : ' (no environments found)'}`);
  }
  return entry;
}

/** Prepares one benchmark entry as an environment folder and loads it. */
export async function openBenchmarkEnvironment(
  benchmarkDir: string,
  id: string,
  options: { environmentsDir?: string; load?: LoadOptions; catalog?: BenchmarkCatalog } = {},
): Promise<OpenedBenchmarkEnvironment & { notes: string[] }> {
  const catalog = options.catalog ?? scanBenchmark(benchmarkDir);
  const prepared = await prepareBenchmarkEnvironment(catalog, findEntry(catalog, id), options.environmentsDir);
  const environment = await loadEnvironment(prepared.folder, options.load);
  return { ...prepared, environment };
}
