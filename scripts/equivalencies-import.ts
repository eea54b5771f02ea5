// npm run equivalencies:import -- FILE.csv: replaces the equivalency tables of the colleges it names.
import { runFromProcess } from '../src/server/cli/run-command';
import { equivalencyImportCommand } from '../src/server/credit/equivalency-import-command';

await runFromProcess(equivalencyImportCommand);
