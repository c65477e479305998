import type { CliCommand } from '../command';
import { askCommand } from './ask';
import { profileCommand } from './profile';
import { simStatsCommand } from './simStats';
import { sqlCommand } from './sql';

/** Every `toffee` subcommand, in the order `toffee --help` lists them. */
export const commands: CliCommand[] = [profileCommand, askCommand, simStatsCommand, sqlCommand];
