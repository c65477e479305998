/**
 * One colour per node status, for the tree canvas and its legend. Fixed per theme kind rather than taken from
 * `--vscode-charts-*`: those collide in the default light theme (charts-orange #d18616 and charts-yellow #bf8803
 * are 9.5 ΔE apart), so "repaired" and "accepted" looked alike. Every pair here is ≥ 25 ΔE (CIE76) apart and
 * every colour has ≥ 3:1 contrast (WCAG non-text) against the theme's default editor background; a unit test
 * checks both.
 */
import { NODE_STATUSES, type NodeStatus } from '../core/store/vocabulary';

export { NODE_STATUSES, type NodeStatus };

export type ThemeKind = 'light' | 'dark';

export const STATUS_COLOURS: Record<ThemeKind, Record<NodeStatus, string>> = {
  dark: {
    open: '#3794ff',
    error: '#f14c4c',
    repaired: '#e8912d',
    terminal: '#b180d7',
    verified: '#89d185',
    pruned: '#8b8b8b',
    accepted: '#2ee6d6',
  },
  light: {
    open: '#1a6fdb',
    error: '#d01c1c',
    repaired: '#b35c00',
    terminal: '#7b3fb0',
    verified: '#2e7d32',
    pruned: '#767676',
    accepted: '#00838f',
  },
};

/** The default editor background of each theme kind (what the contrast check is against). */
export const THEME_BACKGROUNDS: Record<ThemeKind, string> = { dark: '#1e1e1e', light: '#ffffff' };

/** VS Code marks the webview body with its theme kind: vscode-light, vscode-dark, vscode-high-contrast(-light). */
export function themeKindOf(bodyClasses: readonly string[]): ThemeKind {
  return bodyClasses.includes('vscode-light') || bodyClasses.includes('vscode-high-contrast-light') ? 'light' : 'dark';
}

export function statusColour(kind: ThemeKind, status: NodeStatus): string {
  return STATUS_COLOURS[kind][status] ?? STATUS_COLOURS[kind].open;
}

function channels(hex: string): [number, number, number] {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [1, 2, 3].map((i) => parseInt(match[i], 16) / 255) as [number, number, number];
}

function linear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG contrast ratio of two #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = channels(hex).map(linear);
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}

/** CIE76 colour difference (Euclidean distance in CIELAB, D65). */
export function deltaE(a: string, b: string): number {
  const lab = (hex: string) => {
    const [r, g, bl] = channels(hex).map(linear);
    const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
    const x = f((r * 0.4124 + g * 0.3576 + bl * 0.1805) / 0.95047);
    const y = f(r * 0.2126 + g * 0.7152 + bl * 0.0722);
    const z = f((r * 0.0193 + g * 0.1192 + bl * 0.9505) / 1.08883);
    return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
  };
  const [l1, a1, b1] = lab(a);
  const [l2, a2, b2] = lab(b);
  return Math.hypot(l1 - l2, a1 - a2, b1 - b2);
}
