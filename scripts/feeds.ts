// npm run feeds -- check|run|runs|rerun: feeds to the student information system from the command line.
import { runFromProcess } from '../src/server/cli/run-command';
import { feedsCommand } from '../src/server/feeds/feeds-command';

await runFromProcess(feedsCommand);
