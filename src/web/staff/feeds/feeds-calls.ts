import {
  type FeedRunBody,
  type FeedRunResponse,
  type FeedsOverview,
  feedUrls,
} from '../../../shared/integration/feeds-api';
import { getJson, postJson } from '../../data/http-client';

/** Scheduled feeds (src/shared/integration/feeds-api.ts has the contract). */
export const feedsCalls = {
  overview: () => getJson<FeedsOverview>(feedUrls.feeds),
  dryRun: (name: string) => postJson<FeedRunResponse>(feedUrls.dryRun(name)),
  run: (name: string, body: FeedRunBody = {}) =>
    postJson<FeedRunResponse>(feedUrls.run(name), body),
  rerun: (runId: string) => postJson<FeedRunResponse>(feedUrls.rerun(runId)),
};

export const feedsKeys = {
  overview: ['feeds', 'overview'],
} as const;
