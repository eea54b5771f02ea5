// npm run api-client -- create|list|rotate|revoke: integrators' API clients from the command line.
import { runFromProcess } from '../src/server/cli/run-command';
import { apiClientCommand } from '../src/server/integration/api-client-command';

await runFromProcess(apiClientCommand);
