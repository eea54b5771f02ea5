// npm run audit -- verify: checks the audit trail's hash chain and names the first broken entry.
import { auditCommand } from '../src/server/audit/audit-command';
import { runFromProcess } from '../src/server/cli/run-command';

await runFromProcess(auditCommand);
