/** The result of running agent code (SQL or Python) in a sandbox. Never throws for bad code: errors are values. */
export interface ToolResult {
  ok: boolean;
  /** For SQL: result columns of the last statement. */
  columns?: string[];
  rows?: unknown[][];
  /** True when rows were cut at the row cap. */
  truncated?: boolean;
  /** For Python: captured stdout (and stderr). */
  stdout?: string;
  /** SQLite's own error text, the Python traceback's last line, a refusal, or a timeout message. */
  error?: string;
  /** 'cancelled': the caller's AbortSignal stopped the call (not the code's fault, unlike 'timeout'). */
  errorKind?: 'sql' | 'python' | 'refused' | 'timeout' | 'cancelled' | 'internal';
  elapsedMs: number;
}

export interface SandboxLimits {
  /** Per call, default 5000 ms. */
  timeoutMs?: number;
  /** Rows returned at most, default 1000. */
  maxRows?: number;
}
