// npm run staff -- invite|list|role|disable|enable: staff accounts from the command line.
import { runFromProcess } from '../src/server/cli/run-command';
import { staffCommand } from '../src/server/staff/staff-command';

await runFromProcess(staffCommand);
