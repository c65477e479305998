/** An environment opened for an agent: loaded, with its SQL and Python sandboxes, disposed together. */
import type { LoadOptions } from '../env/types';
import { loadSemanticEnvironment } from '../semantics/index';
import type { SemanticEnvironment } from '../semantics/types';
import { PythonSandbox, SqlSandbox } from '../sandbox/index';
import type { SandboxLimits } from '../sandbox/types';
import type { ToolContext } from './tools';

export interface AgentSession {
  env: SemanticEnvironment;
  sql: SqlSandbox;
  python: PythonSandbox;
  toolContext: ToolContext;
  /** Stops the sandbox workers; call it or the process will not exit. */
  dispose(): Promise<void>;
}

/** Loads the folder and starts the sandboxes over its image (Python starts lazily on first use). */
export async function openAgentSession(root: string, options: { load?: LoadOptions; limits?: SandboxLimits } = {}): Promise<AgentSession> {
  const env = await loadSemanticEnvironment(root, options.load);
  const sql = new SqlSandbox(env.image, options.limits);
  const python = new PythonSandbox(env.image, options.limits);
  return {
    env,
    sql,
    python,
    toolContext: { profile: env.profile, documents: env.documents, semantics: env.semantics, sql, python },
    async dispose() {
      await Promise.allSettled([sql.dispose(), python.dispose()]);
    },
  };
}
