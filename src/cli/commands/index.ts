import type { CliCommand } from '../command';
import { askCommand } from './ask';
import { auditCommand } from './audit';
import { benchCommand } from './bench';
import { benchEnvCommand } from './benchEnv';
import { demosCommand } from './demos';
import { exportCommand } from './export';
import { profileCommand } from './profile';
import { revisionsCommand } from './revisions';
import { simStatsCommand } from './simStats';
import { sqlCommand } from './sql';
import { synthesizeCommand } from './synthesize';
import { tasksCommand } from './tasks';
import { mergeCommand } from './merge';
import { collectCommand, enqueueCommand, statusCommand, workerCommand } from './queue';

/** Every `toffee` subcommand, in the order `toffee --help` lists them. */
export const commands: CliCommand[] = [profileCommand, askCommand, simStatsCommand, sqlCommand, tasksCommand, synthesizeCommand, benchCommand, benchEnvCommand, mergeCommand, enqueueCommand, workerCommand, collectCommand, statusCommand, exportCommand, auditCommand, revisionsCommand, demosCommand];
