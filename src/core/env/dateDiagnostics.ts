import { report, type LoaderContext } from './loaderContext';
import type { ColumnSpec } from './tableWriter';
import type { ColumnTypeTracker } from './typeInference';

/** What a finished tracker says of a column: its type and, for dates read from text, the layout. */
export function specOf(tracker: ColumnTypeTracker): Pick<ColumnSpec, 'type' | 'layout' | 'layoutName'> {
  const type = tracker.type;
  const layout = tracker.layout;
  return layout ? { type, layout, layoutName: tracker.layoutName } : { type };
}

/**
 * Diagnostics for typed columns: written-out missing values read as missing, and for date columns: a column of dates in several layouts is kept as text (a warning naming the
 * layouts, so nobody compares `2014-07-01` with `7/1/2014` as text unknowingly); a month/day order that the values
 * cannot decide is said as a note.
 */
export function reportDateLayouts(context: LoaderContext, columns: ReadonlyArray<Pick<ColumnSpec, 'originalName' | 'name'>>, trackers: readonly ColumnTypeTracker[], where = ''): void {
  trackers.forEach((tracker, i) => {
    const column = columns[i];
    if (!column) return;
    const name = column.originalName || column.name;
    if (tracker.missingMarkers > 0 && tracker.type !== 'text') {
      report(context, 'info', `Column '${name}'${where}: ${tracker.missingMarkers} cell(s) write a missing value out (NA, N/A, NULL…); read as missing in a ${tracker.type} column.`);
    }
    const mixed = tracker.mixedDateLayouts;
    if (mixed) {
      const layouts = mixed.counts.map((c) => `${c.layout} (${c.rows} row${c.rows === 1 ? '' : 's'})`).join(', ');
      report(context, 'warning', `Column '${name}'${where} holds dates in ${mixed.counts.length} layouts: ${layouts}; kept as text, as the file writes it.`);
    } else if (tracker.layoutAmbiguous) {
      report(context, 'info', `Column '${name}'${where} is read as month/day/year (${tracker.layoutName}): no value has a part above 12, so day/month/year would fit too.`);
    }
  });
}
