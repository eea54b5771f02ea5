// npm run tmp-answers -- --file ANSWERS.json [--ttl 14d] [--label "..."]: a prefilled-answers link.
import { runFromProcess } from '../src/server/cli/run-command';
import { temporaryAnswersCommand } from '../src/server/temporary-answers/temporary-answers-command';

await runFromProcess(temporaryAnswersCommand());
