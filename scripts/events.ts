/** `npm run events:dead -- <queue>` and `npm run events:replay -- <queue> [--limit N] [--id <id>]`. */
import { eventsCommand } from '@anvil/events';

eventsCommand(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
}).then((code) => process.exit(code));
