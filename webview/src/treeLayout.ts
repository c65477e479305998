/** Tidy tree positions (d3-hierarchy `tree()`) for the explorer tree canvas. */
import { hierarchy, tree } from 'd3-hierarchy';
import type { TaskView } from '../../src/shared/runView';

export const NODE_SPACING_X = 26;
export const LEVEL_SPACING_Y = 80;

interface LayoutItem {
  id: string | null;
  children: LayoutItem[];
}

/**
 * Positions of the task's visible nodes; `isCollapsed(id)` hides a node's descendants (they get no position).
 * Several roots hang under a virtual root that is not drawn.
 */
export function layoutTask(task: TaskView, isCollapsed: (nodeId: string) => boolean = () => false): Map<string, { x: number; y: number }> {
  const build = (id: string): LayoutItem => {
    const node = task.nodes[id];
    return { id, children: isCollapsed(id) ? [] : node.children.map(build) };
  };
  // Iterative-safe depth: explorer trees are shallow (tens of levels), so recursion is fine.
  const root: LayoutItem = { id: null, children: task.rootIds.map(build) };
  const positions = new Map<string, { x: number; y: number }>();
  if (!root.children.length) return positions;
  const laidOut = tree<LayoutItem>().nodeSize([NODE_SPACING_X, LEVEL_SPACING_Y]).separation((a, b) => (a.parent === b.parent ? 1 : 1.4))(hierarchy(root));
  laidOut.each((item) => {
    if (item.data.id !== null) positions.set(item.data.id, { x: item.x, y: item.y - LEVEL_SPACING_Y });
  });
  return positions;
}
