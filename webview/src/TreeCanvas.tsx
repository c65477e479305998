/**
 * The search tree: cytoscape with d3 tidy positions as a preset layout. Patches are applied incrementally (new
 * nodes and edges added, changed nodes' data updated, positions refreshed in one batch), so a 50-node patch on a
 * 5,000-node tree costs milliseconds. React only mounts the container; the canvas is driven from run deltas.
 */
import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';
import { useEffect, useRef } from 'react';
import { displayStatus, type NodeView, type TaskView, type ViewDelta } from '../../src/shared/runView';
import { LEVEL_SPACING_Y, layoutTask, NODE_SPACING_X } from './treeLayout';
import type { RunClient } from './vscodeApi';

const STATUS_COLOUR_VARS: Record<string, [string, string]> = {
  open: ['--vscode-charts-blue', '#3794ff'],
  error: ['--vscode-charts-red', '#f14c4c'],
  repaired: ['--vscode-charts-orange', '#d18616'],
  terminal: ['--vscode-charts-purple', '#b180d7'],
  verified: ['--vscode-charts-green', '#89d185'],
  pruned: ['--vscode-disabledForeground', '#8b8b8b'],
  accepted: ['--vscode-charts-yellow', '#cca700'],
};

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.body).getPropertyValue(name).trim();
  return value || fallback;
}

const RELAYOUT_IDLE_MS = 600;
const RELAYOUT_MAX_WAIT_MS = 2500;
const MODEL_SHAPES = ['ellipse', 'round-rectangle', 'diamond', 'triangle', 'hexagon', 'star'];
/** Above this many nodes, text badges are off (shapes still show the model). */
const LABEL_LIMIT = 1500;

export function nodeSize(visits: number): number {
  return Math.min(44, 12 + 5 * Math.log2(1 + visits));
}

/** Short model badge: "sim-medium" → "medium", "gpt-4o-mini" → "gpt-4o-mini". */
export function modelBadge(model: string | undefined): string {
  if (!model) return '';
  return model.startsWith('sim-') ? model.slice(4) : model.length > 14 ? model.slice(0, 13) + '…' : model;
}

function buildStyle(): cytoscape.StylesheetJson {
  const foreground = cssVar('--vscode-editor-foreground', '#cccccc');
  const edge = cssVar('--vscode-editorIndentGuide-background1', cssVar('--vscode-panel-border', '#555555'));
  const focus = cssVar('--vscode-focusBorder', '#007fd4');
  const match = cssVar('--vscode-editor-findMatchBorder', '#ea5c00');
  const style: cytoscape.StylesheetJson = [
    {
      selector: 'node',
      style: {
        width: 'data(size)',
        height: 'data(size)',
        'background-color': cssVar(STATUS_COLOUR_VARS.open[0], STATUS_COLOUR_VARS.open[1]),
      },
    },
    // Text labels cost a measurement per node; a large tree at fit zoom could not show them anyway.
    { selector: 'node.labelled', style: { label: 'data(badge)', 'font-size': 8, color: foreground, 'text-valign': 'bottom', 'text-margin-y': 2, 'min-zoomed-font-size': 7 } },
    { selector: 'edge', style: { width: 1, 'line-color': edge, 'curve-style': 'haystack', 'haystack-radius': 0 } },
  ];
  // The model badge as a shape, visible at any zoom: small = circle, medium = rounded square, large = diamond.
  style.push({ selector: 'node[shape]', style: { shape: 'data(shape)' as never } });
  for (const [status, [variable, fallback]] of Object.entries(STATUS_COLOUR_VARS)) {
    style.push({ selector: `node[status = "${status}"]`, style: { 'background-color': cssVar(variable, fallback) } });
  }
  style.push(
    { selector: 'node[status = "accepted"]', style: { 'border-width': 2, 'border-color': foreground } },
    { selector: 'node.collapsed', style: { shape: 'round-rectangle', 'border-width': 2, 'border-style': 'dashed', 'border-color': foreground } },
    { selector: 'node.match', style: { 'border-width': 3, 'border-color': match } },
    { selector: 'node.onPath', style: { 'border-width': 3, 'border-color': focus } },
    { selector: 'edge.onPath', style: { width: 4, 'line-color': focus } },
    { selector: 'node.current', style: { 'border-width': 5, 'border-color': focus, 'overlay-opacity': 0.15, 'overlay-color': focus } },
    { selector: 'node:selected', style: { 'border-width': 4, 'border-color': focus } },
  );
  return style;
}

export interface TreeCanvasProps {
  client: RunClient;
  taskId: string | undefined;
  selectedNodeId: string | undefined;
  /** Node ids highlighted as a trajectory path; `currentNodeId` is the player's step. */
  pathNodeIds: string[];
  currentNodeId: string | undefined;
  matchNodeIds: string[];
  collapseBelowVisits: number | undefined;
  onSelectNode: (nodeId: string) => void;
  /** Exposes fit / zoom to the toolbar. */
  controllerRef: React.MutableRefObject<TreeController | undefined>;
}

function boundsOf(positions: Map<string, { x: number; y: number }>): { x1: number; y1: number; x2: number; y2: number } | undefined {
  if (!positions.size) return undefined;
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  for (const { x, y } of positions.values()) {
    if (x < x1) x1 = x;
    if (x > x2) x2 = x;
    if (y < y1) y1 = y;
    if (y > y2) y2 = y;
  }
  return { x1, y1, x2, y2 };
}

export class TreeController {
  readonly cy: Core;
  private taskId: string | undefined;
  private labelled = true;
  private bounds: { x1: number; y1: number; x2: number; y2: number } | undefined;
  private collapsed = new Set<string>();
  private collapseBelow: number | undefined;

  constructor(container: HTMLElement, private readonly client: RunClient, onSelect: (nodeId: string) => void) {
    this.cy = cytoscape({
      container,
      style: buildStyle(),
      layout: { name: 'preset' },
      minZoom: 0.02,
      maxZoom: 4,
      wheelSensitivity: 0.3,
      boxSelectionEnabled: false,
      autoungrabify: true,
      textureOnViewport: true,
      hideEdgesOnViewport: true,
      pixelRatio: 1,
    });
    this.cy.on('tap', 'node', (event) => onSelect(event.target.id()));
  }

  restyle(): void {
    this.cy.style(buildStyle());
  }

  private task(): TaskView | undefined {
    return this.taskId ? this.client.view.tasks[this.taskId] : undefined;
  }

  private readonly modelShapes = new Map<string, string>();

  /** One shape per model, in order of first appearance (the legend lists them). */
  modelShape(model: string | undefined): string {
    if (!model) return 'ellipse';
    let shape = this.modelShapes.get(model);
    if (!shape) {
      shape = MODEL_SHAPES[this.modelShapes.size % MODEL_SHAPES.length];
      this.modelShapes.set(model, shape);
    }
    return shape;
  }

  private nodeData(node: NodeView): Record<string, unknown> {
    return { id: node.id, status: displayStatus(node), size: nodeSize(node.visits), badge: modelBadge(node.model), shape: this.modelShape(node.model) };
  }

  private hidden(task: TaskView, node: NodeView): boolean {
    for (let parentId = node.parentId; parentId; parentId = task.nodes[parentId]?.parentId ?? null) {
      if (this.collapsed.has(parentId)) return true;
    }
    return false;
  }

  private computeCollapsed(task: TaskView): void {
    this.collapsed = new Set();
    if (this.collapseBelow === undefined) return;
    for (const id of task.nodeOrder) {
      const node = task.nodes[id];
      if (node.parentId !== null && node.children.length && node.visits < this.collapseBelow) this.collapsed.add(id);
    }
  }

  /** Redraws the whole task (task switch, snapshot, collapse change). */
  showTask(taskId: string | undefined, collapseBelow: number | undefined): void {
    if (this.relayoutTimer) clearTimeout(this.relayoutTimer);
    this.relayoutTimer = undefined;
    this.taskId = taskId;
    this.collapseBelow = collapseBelow;
    const task = this.task();
    this.cy.startBatch();
    this.cy.elements().remove();
    if (task) {
      this.computeCollapsed(task);
      const positions = layoutTask(task, (id) => this.collapsed.has(id));
      this.labelled = positions.size <= LABEL_LIMIT;
      const labelled = this.labelled;
      this.bounds = boundsOf(positions);
      const elements: ElementDefinition[] = [];
      for (const id of task.nodeOrder) {
        const position = positions.get(id);
        if (!position) continue;
        const node = task.nodes[id];
        const classes = [this.collapsed.has(id) ? 'collapsed' : '', labelled ? 'labelled' : ''].join(' ').trim();
        elements.push({ group: 'nodes', data: this.nodeData(node), position: { ...position }, classes });
        if (node.parentId && positions.has(node.parentId)) elements.push({ group: 'edges', data: { id: `e:${id}`, source: node.parentId, target: id } });
      }
      this.cy.add(elements);
    }
    this.cy.endBatch();
    this.reapplyHighlight();
    performance.mark('toffee:tree-built');
    this.fit();
    performance.mark('toffee:tree-fit');
    this.announceRender();
  }

  /** Applies a patch's delta for the shown task. */
  applyDelta(delta: ViewDelta): void {
    const task = this.task();
    if (!task) return;
    const added = delta.addedNodes.filter((ref) => ref.taskId === task.id);
    const updated = delta.updatedNodes.filter((ref) => ref.taskId === task.id);
    if (!added.length && !updated.length) return;
    this.cy.startBatch();
    if (this.collapseBelow !== undefined && updated.length) {
      // Visit counts changed: collapse membership may change too; cheap enough to recompute.
      const before = [...this.collapsed].join('\n');
      this.computeCollapsed(task);
      if ([...this.collapsed].join('\n') !== before) {
        this.cy.endBatch();
        this.showTaskKeepingViewport();
        return;
      }
    }
    const elements: ElementDefinition[] = [];
    for (const { nodeId } of added) {
      const node = task.nodes[nodeId];
      if (!node || this.hidden(task, node) || this.cy.getElementById(nodeId).nonempty()) continue;
      elements.push({ group: 'nodes', data: this.nodeData(node), position: { x: 0, y: 0 }, classes: this.labelled ? 'labelled' : '' });
      if (node.parentId) elements.push({ group: 'edges', data: { id: `e:${nodeId}`, source: node.parentId, target: nodeId } });
    }
    if (elements.length) {
      this.cy.add(elements);
      // A node that arrives after its highlight was set (search match, path step) still gets its classes.
      if (this.highlighted.key) this.reapplyHighlight();
    }
    for (const { nodeId } of updated) {
      const node = task.nodes[nodeId];
      const element = this.cy.getElementById(nodeId);
      if (node && element.nonempty()) element.data(this.nodeData(node));
    }
    if (added.length) {
      // New nodes go next to their parent now; the tidy relayout, which moves thousands of nodes (and makes
      // cytoscape recompute and redraw all of them), runs once the patches pause.
      this.placeProvisionally(task, added.map((ref) => ref.nodeId));
      this.scheduleRelayout();
    }
    this.cy.endBatch();
    this.announceRender();
  }

  private placeProvisionally(task: TaskView, nodeIds: string[]): void {
    for (const nodeId of nodeIds) {
      const node = task.nodes[nodeId];
      const element = this.cy.getElementById(nodeId);
      if (!node || element.empty()) continue;
      const parent = node.parentId ? this.cy.getElementById(node.parentId) : undefined;
      if (!parent || parent.empty()) continue;
      const siblings = task.nodes[node.parentId!].children;
      const index = siblings.indexOf(nodeId);
      const { x, y } = parent.position();
      element.position({ x: x + (index - (siblings.length - 1) / 2) * NODE_SPACING_X, y: y + LEVEL_SPACING_Y });
    }
  }

  private relayoutTimer: ReturnType<typeof setTimeout> | undefined;
  private relayoutDue = 0;

  /** Debounced tidy relayout: 600 ms after the last patch, and at least every 2.5 s while patches keep coming. */
  private scheduleRelayout(): void {
    const now = Date.now();
    if (!this.relayoutTimer) this.relayoutDue = now + RELAYOUT_MAX_WAIT_MS;
    else clearTimeout(this.relayoutTimer);
    this.relayoutTimer = setTimeout(() => {
      this.relayoutTimer = undefined;
      this.relayout();
    }, Math.max(0, Math.min(RELAYOUT_IDLE_MS, this.relayoutDue - now)));
  }

  /** Moves every node to its tidy position (also what tests call to settle the tree). */
  relayout(): void {
    const task = this.task();
    if (!task) return;
    const positions = layoutTask(task, (id) => this.collapsed.has(id));
    this.bounds = boundsOf(positions);
    this.cy.startBatch();
    this.cy.nodes().positions((element) => {
      const position = positions.get(element.id());
      return position ? { ...position } : element.position();
    });
    this.cy.endBatch();
    window.dispatchEvent(new CustomEvent('toffee:relayout', { detail: { nodes: positions.size } }));
  }

  private showTaskKeepingViewport(): void {
    const zoom = this.cy.zoom();
    const pan = { ...this.cy.pan() };
    this.showTask(this.taskId, this.collapseBelow);
    this.cy.viewport({ zoom, pan });
  }

  /** What setClasses last applied, so an unchanged highlight costs nothing and a changed one touches only its ids. */
  private highlighted: { key: string; path: string[]; current?: string; matches: string[]; selected?: string } = { key: '', path: [], matches: [] };

  private reapplyHighlight(): void {
    const { path, current, matches, selected } = this.highlighted;
    this.highlighted = { key: '', path: [], matches: [] };
    this.setClasses(path, current, matches, selected, true);
  }

  setClasses(pathNodeIds: string[], currentNodeId: string | undefined, matchNodeIds: string[], selectedNodeId: string | undefined, force = false): void {
    // Called after every React render (each patch re-renders the app); selector queries such as
    // cy.elements('.onPath') scan all ~10k elements, so skip the work when nothing changed.
    const key = `${pathNodeIds.join('\n')}|${currentNodeId ?? ''}|${matchNodeIds.join('\n')}|${selectedNodeId ?? ''}`;
    if (!force && key === this.highlighted.key) return;
    const before = this.highlighted;
    this.cy.startBatch();
    for (const id of before.path) {
      this.cy.getElementById(id).removeClass('onPath');
      this.cy.getElementById(`e:${id}`).removeClass('onPath');
    }
    if (before.current) this.cy.getElementById(before.current).removeClass('current');
    for (const id of before.matches) this.cy.getElementById(id).removeClass('match');
    if (before.selected) this.cy.getElementById(before.selected).unselect();
    for (const id of pathNodeIds) {
      this.cy.getElementById(id).addClass('onPath');
      this.cy.getElementById(`e:${id}`).addClass('onPath');
    }
    for (const id of matchNodeIds) this.cy.getElementById(id).addClass('match');
    if (currentNodeId) this.cy.getElementById(currentNodeId).addClass('current');
    if (selectedNodeId) this.cy.getElementById(selectedNodeId).select();
    this.cy.endBatch();
    this.highlighted = { key, path: [...pathNodeIds], current: currentNodeId, matches: [...matchNodeIds], selected: selectedNodeId };
    performance.mark('toffee:classes-set');
  }

  centerOn(nodeId: string): void {
    const element = this.cy.getElementById(nodeId);
    if (element.nonempty()) this.cy.center(element);
  }

  /**
   * Fits the viewport from the layout's own bounds: cytoscape's fit() first computes every element's bounding
   * box (styles and label sizes), seconds on a 5,000-node tree.
   */
  fit(): void {
    const bounds = this.bounds;
    if (!bounds) return;
    const padding = 24;
    const width = Math.max(1, this.cy.width() - 2 * padding);
    const height = Math.max(1, this.cy.height() - 2 * padding);
    const zoom = Math.max(this.cy.minZoom(), Math.min(2, width / Math.max(1, bounds.x2 - bounds.x1 + 40), height / Math.max(1, bounds.y2 - bounds.y1 + 40)));
    this.cy.viewport({
      zoom,
      pan: { x: this.cy.width() / 2 - zoom * (bounds.x1 + bounds.x2) / 2, y: this.cy.height() / 2 - zoom * (bounds.y1 + bounds.y2) / 2 },
    });
  }

  zoomBy(factor: number): void {
    const extent = this.cy.extent();
    this.cy.zoom({ level: this.cy.zoom() * factor, position: { x: (extent.x1 + extent.x2) / 2, y: (extent.y1 + extent.y2) / 2 } });
  }

  /** Tells tests and the benchmark when the canvas has drawn what it was given. */
  private announceRender(): void {
    const nodes = this.cy.nodes().length;
    this.cy.one('render', () => {
      performance.mark('toffee:tree-drawn');
      requestAnimationFrame(() => window.dispatchEvent(new CustomEvent('toffee:rendered', { detail: { nodes, lastSeq: this.client.view.lastSeq } })));
    });
    // Cytoscape renders only when something changed; make sure a frame is requested.
    this.cy.forceRender?.();
  }

  destroy(): void {
    if (this.relayoutTimer) clearTimeout(this.relayoutTimer);
    this.cy.destroy();
  }
}

export function TreeCanvas(props: TreeCanvasProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const controllerRef = props.controllerRef;
  const taskIdRef = useRef(props.taskId);
  const collapseRef = useRef(props.collapseBelowVisits);
  const onSelectRef = useRef(props.onSelectNode);
  onSelectRef.current = props.onSelectNode;

  useEffect(() => {
    if (!containerRef.current) return;
    const controller = new TreeController(containerRef.current, props.client, (id) => onSelectRef.current(id));
    controllerRef.current = controller;
    controller.showTask(taskIdRef.current, collapseRef.current);
    const stopDelta = props.client.onDelta((delta, reset) => {
      if (reset) controller.showTask(taskIdRef.current, collapseRef.current);
      else controller.applyDelta(delta);
    });
    const themeObserver = new MutationObserver(() => controller.restyle());
    themeObserver.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    // The pane changes size with the window and with banners above it; cytoscape caches its container size.
    const resizeObserver = new ResizeObserver(() => controller.cy.resize());
    resizeObserver.observe(containerRef.current);
    return () => {
      resizeObserver.disconnect();
      stopDelta();
      themeObserver.disconnect();
      controller.destroy();
      controllerRef.current = undefined;
    };
  }, [props.client, controllerRef]);

  useEffect(() => {
    if (taskIdRef.current === props.taskId && collapseRef.current === props.collapseBelowVisits) return;
    taskIdRef.current = props.taskId;
    collapseRef.current = props.collapseBelowVisits;
    controllerRef.current?.showTask(props.taskId, props.collapseBelowVisits);
  }, [props.taskId, props.collapseBelowVisits, controllerRef]);

  useEffect(() => {
    controllerRef.current?.setClasses(props.pathNodeIds, props.currentNodeId, props.matchNodeIds, props.selectedNodeId);
  });

  return <div ref={containerRef} className="tree-canvas" role="img" aria-label="Search tree of the selected task; select a node to inspect it" />;
}
