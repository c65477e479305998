import type { CliCommand } from '../command';

/** Every `toffee` subcommand, in the order `toffee --help` lists them. */
export const commands: CliCommand[] = [];
