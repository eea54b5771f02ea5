// npm run retention -- --before YYYY-MM-DD [--dry-run]: deletes old application data and its files.
import { runFromProcess } from '../src/server/cli/run-command';
import { retentionCommand } from '../src/server/retention/retention-command';

await runFromProcess(retentionCommand());
