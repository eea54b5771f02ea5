// npm run webhooks -- add --url URL --events LIST: webhook subscriptions from the command line.
import { runFromProcess } from '../src/server/cli/run-command';
import { webhooksCommand } from '../src/server/webhooks/webhooks-command';

await runFromProcess(webhooksCommand);
