// npm run lookup:import -- --category college_ceeb FILE.csv: replaces a school list for the lookup.
import { runFromProcess } from '../src/server/cli/run-command';
import { lookupImportCommand } from '../src/server/lookup/lookup-import-command';

await runFromProcess(lookupImportCommand);
