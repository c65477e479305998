export { SqlSandbox } from './SqlSandbox';
export { PythonSandbox } from './PythonSandbox';
export { checkReadOnly } from './sqlGuard';
export type { GuardVerdict } from './sqlGuard';
export { DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT_MS } from './limits';
export type { SandboxLimits, ToolResult } from './types';
