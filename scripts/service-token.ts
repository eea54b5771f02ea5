// npm run service-token -- --email APPLICANT_EMAIL [--ttl 24h]: a read-only link for admissions staff.
import { runFromProcess } from '../src/server/cli/run-command';
import { serviceTokenCommand } from '../src/server/service/service-token-command';

await runFromProcess(serviceTokenCommand);
