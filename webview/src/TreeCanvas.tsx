/**
 * The search tree, drawn on one Canvas 2D: d3 tidy positions (treeLayout.ts), nodes coloured by status, sized by
 * visits, shaped by model (the same shape per model in every run, format.ts), with the model badge as text under
 * each node wherever it fits between its neighbours. Patches are applied incrementally: a tree of up to 1,500 nodes
 * is laid out again at once; a larger one places new nodes next to their parent and is laid out again once the
 * patches pause. Every change costs one redraw of the visible part, coalesced to one per animation frame:
 * milliseconds for 5,000 nodes, where cytoscape spent seconds building per-element caches on its first frame and
 * ~200 ms redrawing after each patch. Hit-testing goes through a uniform grid over the layout. React only mounts the
 * canvas.
 */
import { useEffect, useRef } from 'react';
import { displayStatus, type NodeView, type TaskView, type ViewDelta } from '../../src/shared/runView';
import { statusColour, themeKindOf, type NodeStatus, type ThemeKind } from '../../src/shared/statusColours';
import { modelShape, type NodeShape } from './format';
import { LEVEL_SPACING_Y, layoutTask, NODE_SPACING_X } from './treeLayout';
import type { RunClient } from './runClient';

const RELAYOUT_IDLE_MS = 600;
/** Up to this many nodes, a patch's new nodes get the tidy layout at once; larger trees relayout when patches pause. */
const IMMEDIATE_RELAYOUT_NODES = 1500;
const RELAYOUT_MAX_WAIT_MS = 2500;
const MIN_ZOOM = 0.02;
const MAX_ZOOM = 4;
/** Nodes never shrink below this radius on screen, so a fitted 5,000-node tree still shows its shape. */
const MIN_SCREEN_RADIUS = 1.5;
/**
 * Badge text: 8 world units high, but never below 10 px or above 13 px on screen, and drawn only under nodes whose
 * neighbours on the same level leave room for it (and for at most LABEL_LIMIT visible nodes).
 */
const LABEL_FONT_WORLD = 8;
const MIN_LABEL_PX = 10;
const MAX_LABEL_PX = 13;
const LABEL_LIMIT = 1500;
const GRID_CELL = 64;

export function nodeSize(visits: number): number {
  return Math.min(44, 12 + 5 * Math.log2(1 + visits));
}

/** Short model badge: "sim-medium" → "medium", "gpt-4o-mini" → "gpt-4o-mini". */
export function modelBadge(model: string | undefined): string {
  if (!model) return '';
  return model.startsWith('sim-') ? model.slice(4) : model.length > 14 ? model.slice(0, 13) + '…' : model;
}

/** What the canvas draws for one node (world coordinates). */
interface DrawnNode {
  id: string;
  parentId: string | null;
  x: number;
  y: number;
  radius: number;
  status: NodeStatus;
  shape: NodeShape;
  badge: string;
  collapsed: boolean;
}

interface Palette {
  kind: ThemeKind;
  foreground: string;
  edge: string;
  focus: string;
  match: string;
}

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.body).getPropertyValue(name).trim();
  return value || fallback;
}

function readPalette(): Palette {
  return {
    kind: themeKindOf([...document.body.classList]),
    foreground: cssVar('--vscode-editor-foreground', '#cccccc'),
    edge: cssVar('--vscode-editorIndentGuide-background1', cssVar('--vscode-panel-border', '#6b6b6b')),
    focus: cssVar('--vscode-focusBorder', '#007fd4'),
    match: cssVar('--vscode-editor-findMatchBorder', '#ea5c00'),
  };
}

/** Adds one node outline to the current path (screen coordinates); the shape legend draws with it too. */
export function shapePath(ctx: CanvasRenderingContext2D, shape: NodeShape, x: number, y: number, r: number): void {
  switch (shape) {
    case 'ellipse':
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      return;
    case 'round-rectangle':
      if (r < 4) ctx.rect(x - r, y - r, 2 * r, 2 * r);
      else ctx.roundRect(x - r, y - r, 2 * r, 2 * r, r / 3);
      return;
    case 'diamond':
      ctx.moveTo(x, y - r);
      ctx.lineTo(x + r, y);
      ctx.lineTo(x, y + r);
      ctx.lineTo(x - r, y);
      ctx.closePath();
      return;
    case 'triangle':
      ctx.moveTo(x, y - r);
      ctx.lineTo(x + r, y + r);
      ctx.lineTo(x - r, y + r);
      ctx.closePath();
      return;
    case 'hexagon':
    case 'star': {
      const points = shape === 'hexagon' ? 6 : 10;
      for (let i = 0; i < points; i++) {
        const angle = -Math.PI / 2 + (i * 2 * Math.PI) / points;
        const radius = shape === 'star' && i % 2 ? r * 0.45 : r;
        const px = x + radius * Math.cos(angle);
        const py = y + radius * Math.sin(angle);
        if (i) ctx.lineTo(px, py);
        else ctx.moveTo(px, py);
      }
      ctx.closePath();
      return;
    }
  }
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

export class TreeController {
  private readonly ctx: CanvasRenderingContext2D;
  private taskId: string | undefined;
  private nodes = new Map<string, DrawnNode>();
  /** Uniform grid over world coordinates → nodes whose centre lies in the cell (for hit-testing). */
  private grid = new Map<string, DrawnNode[]>();
  private bounds: { x1: number; y1: number; x2: number; y2: number } | undefined;
  private collapsed = new Set<string>();
  private collapseBelow: number | undefined;
  private zoom = 1;
  private panX = 0;
  private panY = 0;
  private width = 0;
  private height = 0;
  private palette: Palette;
  private frame: number | undefined;
  /** Until the user zooms or pans, the tree stays fitted (the pane resizes as the side panel and banners fill in). */
  private autoFit = true;
  private announcePending = false;
  private highlight = { key: '', path: new Set<string>(), current: undefined as string | undefined, matches: new Set<string>(), selected: undefined as string | undefined };
  private readonly detach: () => void;

  constructor(
    readonly canvas: HTMLCanvasElement,
    private readonly client: RunClient,
    private readonly onSelect: (nodeId: string) => void,
  ) {
    const ctx = canvas.getContext('2d', { alpha: true });
    if (!ctx) throw new Error('the tree needs a 2D canvas');
    this.ctx = ctx;
    this.palette = readPalette();
    this.detach = this.attachInput();
    this.resize();
  }

  /** Re-reads the theme (VS Code changes the body's classes and variables on a theme switch). */
  restyle(): void {
    this.palette = readPalette();
    this.requestDraw();
  }

  resize(): void {
    const rect = this.canvas.getBoundingClientRect();
    const ratio = Math.min(2, window.devicePixelRatio || 1);
    this.width = Math.max(1, rect.width);
    this.height = Math.max(1, rect.height);
    this.canvas.width = Math.round(this.width * ratio);
    this.canvas.height = Math.round(this.height * ratio);
    this.ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    if (this.autoFit) this.fit();
    else this.requestDraw();
  }

  private task(): TaskView | undefined {
    return this.taskId ? this.client.view.tasks[this.taskId] : undefined;
  }

  /** The number of nodes drawn (visible in the layout, not inside a collapsed subtree). */
  get nodeCount(): number {
    return this.nodes.size;
  }

  private describe(node: NodeView, x: number, y: number): DrawnNode {
    return {
      id: node.id,
      parentId: node.parentId,
      x,
      y,
      radius: nodeSize(node.visits) / 2,
      status: displayStatus(node),
      shape: modelShape(node.model),
      badge: modelBadge(node.model),
      collapsed: this.collapsed.has(node.id),
    };
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

  private cellKey(x: number, y: number): string {
    return `${Math.floor(x / GRID_CELL)},${Math.floor(y / GRID_CELL)}`;
  }

  private indexNode(node: DrawnNode): void {
    const key = this.cellKey(node.x, node.y);
    const cell = this.grid.get(key);
    if (cell) cell.push(node);
    else this.grid.set(key, [node]);
  }

  private rebuildIndex(): void {
    this.grid = new Map();
    let x1 = Infinity;
    let y1 = Infinity;
    let x2 = -Infinity;
    let y2 = -Infinity;
    for (const node of this.nodes.values()) {
      this.indexNode(node);
      if (node.x < x1) x1 = node.x;
      if (node.x > x2) x2 = node.x;
      if (node.y < y1) y1 = node.y;
      if (node.y > y2) y2 = node.y;
    }
    this.bounds = this.nodes.size ? { x1, y1, x2, y2 } : undefined;
  }

  /** Redraws the whole task (task switch, snapshot, collapse change) and fits it. */
  showTask(taskId: string | undefined, collapseBelow: number | undefined): void {
    this.loadTask(taskId, collapseBelow);
    this.fit();
  }

  /** The user moved the view: stop refitting it. */
  private userMoved(): void {
    this.autoFit = false;
  }

  private loadTask(taskId: string | undefined, collapseBelow: number | undefined): void {
    if (this.relayoutTimer) clearTimeout(this.relayoutTimer);
    this.relayoutTimer = undefined;
    this.taskId = taskId;
    this.collapseBelow = collapseBelow;
    this.nodes = new Map();
    const task = this.task();
    if (task) {
      this.computeCollapsed(task);
      const positions = layoutTask(task, (id) => this.collapsed.has(id));
      for (const id of task.nodeOrder) {
        const position = positions.get(id);
        if (position) this.nodes.set(id, this.describe(task.nodes[id], position.x, position.y));
      }
    }
    this.rebuildIndex();
    performance.mark('toffee:tree-built');
    this.requestDraw(true);
  }

  /** Applies a patch's delta for the shown task. */
  applyDelta(delta: ViewDelta): void {
    const task = this.task();
    if (!task) return;
    const added = delta.addedNodes.filter((ref) => ref.taskId === task.id);
    const updated = delta.updatedNodes.filter((ref) => ref.taskId === task.id);
    if (!added.length && !updated.length) return;
    if (this.collapseBelow !== undefined && updated.length) {
      // Visit counts changed: collapse membership may change too; then the layout changes shape.
      const before = [...this.collapsed].join('\n');
      this.computeCollapsed(task);
      if ([...this.collapsed].join('\n') !== before) {
        this.loadTask(this.taskId, this.collapseBelow);
        return;
      }
    }
    const changed = new Set<DrawnNode>();
    for (const { nodeId } of updated) {
      const node = task.nodes[nodeId];
      const drawn = this.nodes.get(nodeId);
      if (node && drawn) changed.add(Object.assign(drawn, this.describe(node, drawn.x, drawn.y)));
    }
    let placed = false;
    for (const { nodeId } of added) {
      const node = task.nodes[nodeId];
      if (!node || this.nodes.has(nodeId) || this.hidden(task, node)) continue;
      // New nodes go next to their parent now; the tidy relayout, which moves thousands of nodes, runs once the
      // patches pause.
      const parent = node.parentId ? this.nodes.get(node.parentId) : undefined;
      let x = 0;
      let y = 0;
      if (parent) {
        const siblings = task.nodes[parent.id].children;
        x = parent.x + (siblings.indexOf(nodeId) - (siblings.length - 1) / 2) * NODE_SPACING_X;
        y = parent.y + LEVEL_SPACING_Y;
      }
      const drawn = this.describe(node, x, y);
      this.nodes.set(nodeId, drawn);
      this.indexNode(drawn);
      changed.add(drawn);
      if (parent) changed.add(parent);
      placed = true;
    }
    if (placed && task.nodeOrder.length <= IMMEDIATE_RELAYOUT_NODES) {
      // A small tree is laid out again at once (well under a millisecond), so it never shows overlapping nodes.
      this.relayout();
      this.requestDraw(true);
      return;
    }
    if (placed) this.scheduleRelayout();
    this.requestDraw(true, changed);
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
    for (const [id, node] of this.nodes) {
      const position = positions.get(id);
      if (position) {
        node.x = position.x;
        node.y = position.y;
      }
    }
    this.rebuildIndex();
    if (this.autoFit) this.fit();
    else this.requestDraw();
    window.dispatchEvent(new CustomEvent('toffee:relayout', { detail: { nodes: positions.size } }));
  }

  setHighlight(pathNodeIds: string[], currentNodeId: string | undefined, matchNodeIds: string[], selectedNodeId: string | undefined): void {
    // Called after every React render; an unchanged highlight costs a string comparison.
    const key = `${pathNodeIds.join('\n')}|${currentNodeId ?? ''}|${matchNodeIds.join('\n')}|${selectedNodeId ?? ''}`;
    if (key === this.highlight.key) return;
    this.highlight = { key, path: new Set(pathNodeIds), current: currentNodeId, matches: new Set(matchNodeIds), selected: selectedNodeId };
    this.requestDraw();
  }

  centerOn(nodeId: string): void {
    const node = this.nodes.get(nodeId);
    if (!node) return;
    this.userMoved();
    this.panX = this.width / 2 - this.zoom * node.x;
    this.panY = this.height / 2 - this.zoom * node.y;
    this.requestDraw();
  }

  fit(): void {
    this.autoFit = true;
    const bounds = this.bounds;
    if (!bounds) return this.requestDraw();
    const padding = 24;
    // The legends sit over the bottom of the pane: the fitted tree stays above them.
    const legendRoom = 48;
    const width = Math.max(1, this.width - 2 * padding);
    const height = Math.max(1, this.height - 2 * padding - legendRoom);
    this.zoom = Math.max(MIN_ZOOM, Math.min(2, width / Math.max(1, bounds.x2 - bounds.x1 + 40), height / Math.max(1, bounds.y2 - bounds.y1 + 40)));
    this.panX = this.width / 2 - (this.zoom * (bounds.x1 + bounds.x2)) / 2;
    this.panY = (this.height - legendRoom) / 2 - (this.zoom * (bounds.y1 + bounds.y2)) / 2;
    this.requestDraw();
  }

  /** Zooms by `factor` around a screen point (the centre by default). */
  zoomBy(factor: number, screenX = this.width / 2, screenY = this.height / 2): void {
    this.userMoved();
    const zoom = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, this.zoom * factor));
    this.panX = screenX - ((screenX - this.panX) * zoom) / this.zoom;
    this.panY = screenY - ((screenY - this.panY) * zoom) / this.zoom;
    this.zoom = zoom;
    this.requestDraw();
  }

  panBy(dx: number, dy: number): void {
    this.userMoved();
    this.panX += dx;
    this.panY += dy;
    this.requestDraw();
  }

  /** The drawn node under a screen point, if any (nearest centre within its radius, or a few pixels when tiny). */
  nodeAt(screenX: number, screenY: number): string | undefined {
    const x = (screenX - this.panX) / this.zoom;
    const y = (screenY - this.panY) / this.zoom;
    const reach = Math.max(22, 6 / this.zoom);
    let best: DrawnNode | undefined;
    let bestDistance = Infinity;
    const [cx1, cy1, cx2, cy2] = [x - reach, y - reach, x + reach, y + reach].map((v) => Math.floor(v / GRID_CELL));
    for (let cx = cx1; cx <= cx2; cx++) {
      for (let cy = cy1; cy <= cy2; cy++) {
        for (const node of this.grid.get(`${cx},${cy}`) ?? []) {
          const distance = Math.hypot(node.x - x, node.y - y);
          const hitRadius = Math.max(node.radius, (MIN_SCREEN_RADIUS + 4) / this.zoom);
          if (distance <= hitRadius && distance < bestDistance) {
            best = node;
            bestDistance = distance;
          }
        }
      }
    }
    return best?.id;
  }

  private attachInput(): () => void {
    const canvas = this.canvas;
    let drag: { x: number; y: number; moved: boolean; pointerId: number } | undefined;
    const point = (event: MouseEvent) => {
      const rect = canvas.getBoundingClientRect();
      return { x: event.clientX - rect.left, y: event.clientY - rect.top };
    };
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const { x, y } = point(event);
      this.zoomBy(Math.exp(-event.deltaY * 0.0015), x, y);
    };
    const onDown = (event: PointerEvent) => {
      drag = { x: event.clientX, y: event.clientY, moved: false, pointerId: event.pointerId };
      canvas.setPointerCapture?.(event.pointerId);
    };
    const onMove = (event: PointerEvent) => {
      if (!drag || drag.pointerId !== event.pointerId) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 4) return;
      drag.moved = true;
      drag.x = event.clientX;
      drag.y = event.clientY;
      this.panBy(dx, dy);
    };
    const onUp = (event: PointerEvent) => {
      if (!drag || drag.pointerId !== event.pointerId) return;
      const wasDrag = drag.moved;
      drag = undefined;
      if (wasDrag) return;
      const { x, y } = point(event);
      const id = this.nodeAt(x, y);
      if (id) this.onSelect(id);
    };
    const onKey = (event: KeyboardEvent) => {
      const step = 60;
      const actions: Record<string, () => void> = {
        ArrowLeft: () => this.panBy(step, 0),
        ArrowRight: () => this.panBy(-step, 0),
        ArrowUp: () => this.panBy(0, step),
        ArrowDown: () => this.panBy(0, -step),
        '+': () => this.zoomBy(1.25),
        '=': () => this.zoomBy(1.25),
        '-': () => this.zoomBy(0.8),
        '0': () => this.fit(),
      };
      const action = actions[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    canvas.addEventListener('pointerdown', onDown);
    canvas.addEventListener('pointermove', onMove);
    canvas.addEventListener('pointerup', onUp);
    canvas.addEventListener('keydown', onKey);
    return () => {
      canvas.removeEventListener('wheel', onWheel);
      canvas.removeEventListener('pointerdown', onDown);
      canvas.removeEventListener('pointermove', onMove);
      canvas.removeEventListener('pointerup', onUp);
      canvas.removeEventListener('keydown', onKey);
    };
  }

  /** Nodes changed since the last frame, painted over it when nothing else changed (undefined: redraw all). */
  private incremental: Set<DrawnNode> | undefined = new Set();
  /** The viewport, size, highlight and palette the canvas was last fully drawn with. */
  private drawnKey = '';

  private viewKey(): string {
    return `${this.zoom}|${this.panX}|${this.panY}|${this.width}|${this.height}|${this.highlight.key}|${JSON.stringify(this.palette)}`;
  }

  /**
   * One redraw per animation frame, however many changes arrive; `announce` reports it to tests and the
   * benchmark. With `changed`, only those nodes (and their edges) are painted over the last frame, unless
   * something else asked for a full redraw; the debounced relayout then redraws everything.
   */
  private requestDraw(announce = false, changed?: Set<DrawnNode>): void {
    if (announce) this.announcePending = true;
    if (!changed) this.incremental = undefined;
    else if (this.incremental) for (const node of changed) this.incremental.add(node);
    if (this.frame !== undefined) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = undefined;
      const announce = this.announcePending;
      this.announcePending = false;
      const incremental = this.incremental;
      this.incremental = new Set();
      if (announce) performance.mark('toffee:draw-start');
      const key = this.viewKey();
      if (incremental && key === this.drawnKey) this.drawNodes([...incremental]);
      else this.draw();
      this.drawnKey = key;
      if (announce) {
        performance.mark('toffee:tree-drawn');
        // For tests and the benchmark: how many nodes are drawn, and when the run's first node first was.
        this.canvas.dataset.drawnNodes = String(this.nodes.size);
        if (this.nodes.size > 0 && !this.canvas.dataset.firstNodeAt) this.canvas.dataset.firstNodeAt = String(Date.now());
        window.dispatchEvent(new CustomEvent('toffee:rendered', { detail: { nodes: this.nodes.size, lastSeq: this.client.view.lastSeq } }));
      }
    });
  }

  private draw(): void {
    this.ctx.clearRect(0, 0, this.width, this.height);
    this.drawNodes([...this.nodes.values()]);
  }

  /** Paints the given nodes with their edges to their parents, highlights and badges (within the viewport). */
  private drawNodes(nodes: DrawnNode[]): void {
    const { ctx, zoom, panX, panY, palette } = this;
    // The visible world rectangle, with a margin for the largest node.
    const margin = 24;
    const x1 = (-panX) / zoom - margin;
    const x2 = (this.width - panX) / zoom + margin;
    const y1 = (-panY) / zoom - margin;
    const y2 = (this.height - panY) / zoom + margin;
    const inView = (node: DrawnNode) => node.x >= x1 && node.x <= x2 && node.y >= y1 && node.y <= y2;
    const { path, current, matches, selected } = this.highlight;

    // Edges: one stroke for all, one for the highlighted path (an edge belongs to its child node).
    ctx.lineWidth = 1;
    ctx.strokeStyle = palette.edge;
    ctx.beginPath();
    const pathEdges: Array<[DrawnNode, DrawnNode]> = [];
    for (const node of nodes) {
      const parent = node.parentId ? this.nodes.get(node.parentId) : undefined;
      if (!parent) continue;
      if ((node.x < x1 && parent.x < x1) || (node.x > x2 && parent.x > x2) || (node.y < y1 && parent.y < y1) || (node.y > y2 && parent.y > y2)) continue;
      if (path.has(node.id) && path.has(parent.id)) pathEdges.push([parent, node]);
      ctx.moveTo(parent.x * zoom + panX, parent.y * zoom + panY);
      ctx.lineTo(node.x * zoom + panX, node.y * zoom + panY);
    }
    ctx.stroke();
    if (pathEdges.length) {
      ctx.lineWidth = Math.max(2, 4 * Math.min(1, zoom * 2));
      ctx.strokeStyle = palette.focus;
      ctx.beginPath();
      for (const [parent, node] of pathEdges) {
        ctx.moveTo(parent.x * zoom + panX, parent.y * zoom + panY);
        ctx.lineTo(node.x * zoom + panX, node.y * zoom + panY);
      }
      ctx.stroke();
    }

    // Nodes: one fill per status colour.
    const visible: DrawnNode[] = [];
    const byStatus = new Map<NodeStatus, DrawnNode[]>();
    for (const node of nodes) {
      if (!inView(node)) continue;
      visible.push(node);
      const group = byStatus.get(node.status);
      if (group) group.push(node);
      else byStatus.set(node.status, [node]);
    }
    const screenRadius = (node: DrawnNode) => Math.max(MIN_SCREEN_RADIUS, node.radius * zoom);
    for (const [status, group] of byStatus) {
      ctx.fillStyle = statusColour(palette.kind, status);
      ctx.beginPath();
      for (const node of group) shapePath(ctx, node.shape, node.x * zoom + panX, node.y * zoom + panY, screenRadius(node));
      ctx.fill();
    }

    // Outlines, weakest first so the strongest (current step, selection) end on top.
    const outline = (node: DrawnNode | undefined, colour: string, width: number, dashed = false) => {
      if (!node || !inView(node)) return;
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      ctx.setLineDash(dashed ? [3, 2] : []);
      ctx.beginPath();
      shapePath(ctx, node.shape, node.x * zoom + panX, node.y * zoom + panY, screenRadius(node) + width / 2);
      ctx.stroke();
    };
    for (const node of visible) {
      if (node.status === 'accepted') outline(node, palette.foreground, 1.5);
      if (node.collapsed) outline(node, palette.foreground, 1.5, true);
    }
    ctx.setLineDash([]);
    const paintedIds = nodes.length === this.nodes.size ? undefined : new Set(visible.map((node) => node.id));
    const drawnHere = (id: string | undefined) => (id && (!paintedIds || paintedIds.has(id)) ? this.nodes.get(id) : undefined);
    for (const id of matches) outline(drawnHere(id), palette.match, 2.5);
    for (const id of path) if (id !== current) outline(drawnHere(id), palette.focus, 2.5);
    if (current) outline(drawnHere(current), palette.focus, 4);
    if (selected && selected !== current) outline(drawnHere(selected), palette.focus, 3);

    // Model badges, where they fit between the node's neighbours on its level (a crowded level keeps its shapes
    // and the legend instead). Painted over the last frame, a badge is drawn only with its whole level.
    if (visible.length <= LABEL_LIMIT) this.drawBadges(visible, paintedIds === undefined);
  }

  private drawBadges(visible: DrawnNode[], complete: boolean): void {
    const { ctx, zoom, panX, panY, palette } = this;
    const fontPx = Math.min(MAX_LABEL_PX, Math.max(MIN_LABEL_PX, LABEL_FONT_WORLD * zoom));
    ctx.fillStyle = palette.foreground;
    ctx.font = `${fontPx.toFixed(1)}px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const levels = new Map<number, DrawnNode[]>();
    for (const node of complete ? visible : [...this.nodes.values()]) {
      if (!node.badge) continue;
      const level = levels.get(node.y);
      if (level) level.push(node);
      else levels.set(node.y, [node]);
    }
    const shown = new Set(visible.map((node) => node.id));
    let drawn = 0;
    for (const level of levels.values()) {
      level.sort((a, b) => a.x - b.x);
      level.forEach((node, i) => {
        if (!shown.has(node.id)) return;
        const half = ctx.measureText(node.badge).width / 2 + 3;
        const room = (neighbour: DrawnNode | undefined) => !neighbour || Math.abs(neighbour.x - node.x) * zoom >= half + ctx.measureText(neighbour.badge).width / 2 + 3;
        if (!room(level[i - 1]) || !room(level[i + 1])) return;
        ctx.fillText(node.badge, node.x * zoom + panX, node.y * zoom + panY + Math.max(MIN_SCREEN_RADIUS, node.radius * zoom) + 2);
        drawn++;
      });
    }
    this.canvas.dataset.badges = String(drawn);
  }

  destroy(): void {
    if (this.relayoutTimer) clearTimeout(this.relayoutTimer);
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    this.detach();
  }
}

export function TreeCanvas(props: TreeCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const controllerRef = props.controllerRef;
  const taskIdRef = useRef(props.taskId);
  const collapseRef = useRef(props.collapseBelowVisits);
  const onSelectRef = useRef(props.onSelectNode);
  onSelectRef.current = props.onSelectNode;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const controller = new TreeController(canvas, props.client, (id) => onSelectRef.current(id));
    controllerRef.current = controller;
    controller.showTask(taskIdRef.current, collapseRef.current);
    const stopDelta = props.client.onDelta((delta, reset) => {
      if (reset) controller.showTask(taskIdRef.current, collapseRef.current);
      else controller.applyDelta(delta);
    });
    // A theme switch changes the body's class and the variables VS Code sets on <html>.
    const themeObserver = new MutationObserver(() => controller.restyle());
    themeObserver.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    themeObserver.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
    // The pane changes size with the window and with banners above it.
    const resizeObserver = new ResizeObserver(() => controller.resize());
    resizeObserver.observe(canvas);
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
    controllerRef.current?.setHighlight(props.pathNodeIds, props.currentNodeId, props.matchNodeIds, props.selectedNodeId);
  });

  return (
    <canvas
      ref={canvasRef}
      className="tree-canvas"
      tabIndex={0}
      role="img"
      aria-label="Search tree of the selected task: click a node to inspect it; arrow keys pan, + and − zoom, 0 fits"
      data-testid="tree-canvas"
    />
  );
}
