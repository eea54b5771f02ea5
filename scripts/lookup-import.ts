// npm run lookup:import -- --category college_ceeb FILE.csv: replaces a school list for the lookup.
import { runLookupImport } from '../src/server/lookup/lookup-import-command';

const io = {
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
};
process.exitCode = await runLookupImport(process.argv.slice(2), { io });
