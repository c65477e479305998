import { DataFolderError } from '../core/env/types';
import { CliError } from './command';
import { commands } from './commands/index';

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length), 4);
  return [
    'toffee — synthesize data-agent trajectories from your own data',
    '',
    'Usage: toffee <command> [options]',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `toffee <command> --help` for a command\'s options.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(help());
    return name ? 0 : 1;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.error(`toffee: unknown command '${name}'. Commands: ${commands.map((c) => c.name).join(', ')}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.usage);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    if (e instanceof CliError || e instanceof DataFolderError) {
      console.error(`toffee ${name}: ${e.message}`);
      return e instanceof CliError ? e.exitCode : 1;
    }
    console.error(`toffee ${name}: internal error: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    return 70;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      console.error(e);
      process.exitCode = 70;
    },
  );
}
