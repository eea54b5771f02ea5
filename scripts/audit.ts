// npm run audit -- verify | checkpoint: checks the audit trail against its hashes, MACs and checkpoints, or writes a checkpoint.
import { auditCommand } from '../src/server/audit/audit-command';
import { runFromProcess } from '../src/server/cli/run-command';

await runFromProcess(auditCommand);
