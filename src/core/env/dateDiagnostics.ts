import { report, type LoaderContext } from './loaderContext';
import type { ColumnSpec } from './tableWriter';
import type { ColumnTypeTracker } from './typeInference';

/** What a finished tracker says of a column: its type and, for dates read from text, the layout; for percentages, the unit. */
export function specOf(tracker: ColumnTypeTracker): Pick<ColumnSpec, 'type' | 'layout' | 'layoutName' | 'unit'> {
  const type = tracker.type;
  const layout = tracker.layout;
  const unit = tracker.unit;
  const spec: Pick<ColumnSpec, 'type' | 'layout' | 'layoutName' | 'unit'> = layout ? { type, layout, layoutName: tracker.layoutName } : { type };
  if (unit) spec.unit = unit;
  return spec;
}

/** Up to `limit` quoted names, then how many more. */
function namesList(names: readonly string[], limit = 6): string {
  const shown = names.slice(0, limit).map((n) => `'${n}'`).join(', ');
  return names.length > limit ? `${shown} and ${names.length - limit} more` : shown;
}

/**
 * Diagnostics for typed columns: written-out missing values read as missing, percentages stored as numbers, leading
 * zeros dropped from numbers, and for date columns: a column of dates in several layouts is kept as text (a warning
 * naming the layouts, so nobody compares `2014-07-01` with `7/1/2014` as text unknowingly); a month/day order that the
 * values cannot decide is said as a note. What many columns share is said once, naming them.
 */
export function reportDateLayouts(context: LoaderContext, columns: ReadonlyArray<Pick<ColumnSpec, 'originalName' | 'name'>>, trackers: readonly ColumnTypeTracker[], where = ''): void {
  const marked: Array<{ name: string; tracker: ColumnTypeTracker }> = [];
  const percent: string[] = [];
  const padded: Array<{ name: string; count: number }> = [];
  trackers.forEach((tracker, i) => {
    const column = columns[i];
    if (!column) return;
    const name = column.originalName || column.name;
    if (tracker.missingMarkers > 0 && tracker.type !== 'text') marked.push({ name, tracker });
    if (tracker.unit === '%') percent.push(name);
    if (tracker.paddedNumbers > 0) padded.push({ name, count: tracker.paddedNumbers });
    const mixed = tracker.mixedDateLayouts;
    if (mixed) {
      const layouts = mixed.counts.map((c) => `${c.layout} (${c.rows} row${c.rows === 1 ? '' : 's'})`).join(', ');
      report(context, 'warning', `Column '${name}'${where} holds dates in ${mixed.counts.length} layouts: ${layouts}; kept as text, as the file writes it.`);
    } else if (tracker.layoutAmbiguous) {
      report(context, 'info', `Column '${name}'${where} is read as month/day/year (${tracker.layoutName}): no value has a part above 12, so day/month/year would fit too.`);
    }
  });
  const markers = (list: typeof marked) => [...new Set(list.flatMap((m) => [...m.tracker.markersSeen]))].slice(0, 6).join(', ');
  if (marked.length > 0 && marked.length <= 3) {
    for (const { name, tracker } of marked) {
      report(context, 'info', `Column '${name}'${where}: ${tracker.missingMarkers} cell(s) write a missing value out (${markers([{ name, tracker }])}); read as missing in a ${tracker.type} column.`);
    }
  } else if (marked.length > 3) {
    const cells = marked.reduce((sum, m) => sum + m.tracker.missingMarkers, 0);
    report(context, 'info', `${marked.length} columns${where} have cells that write a missing value out (${markers(marked)}; ${cells} cells in all), read as missing in typed columns: ${namesList(marked.map((m) => m.name))}.`);
  }
  if (percent.length > 0) {
    report(context, 'info', `${percent.length === 1 ? 'Column' : `${percent.length} columns`}${where} ${namesList(percent)} ${percent.length === 1 ? 'holds' : 'hold'} percentages written with % (90.6%): stored as numbers (90.6), the unit % kept in the column's profile.`);
  }
  if (padded.length > 0) {
    const list = padded.length === 1 ? `'${padded[0].name}' (${padded[0].count} cell(s))` : namesList(padded.map((p) => p.name));
    report(context, 'info', `Leading zeros${where} read as numbers (04 → 4) in ${padded.length === 1 ? 'the numeric column' : `${padded.length} numeric columns`} ${list}: each also writes numbers without them, or holds month numbers 01–12 (a column of codes of one width, like 01001, stays text).`);
  }
}
