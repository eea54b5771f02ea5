import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLocation, useNavigation, useSearchParams } from 'react-router';
import { AssignListPanel } from '../committee/assign-list-panel';
import { EstimateBatchPanel } from '../credit/estimate-batch-panel';
import { DecisionBatchPanel } from '../decisions/decision-batch-panel';
import { PageHeading } from '../shell/page-heading';
import { meQueryOptions } from '../shell/staff-calls';
import {
  listQueryFromSearch,
  listQueryString,
  searchOfListQuery,
  withPage,
} from './application-filters';
import { BulkChecklistPanel } from './bulk-checklist-panel';
import { ExportPanel } from './export-panel';
import { listCalls, listKeys } from './list-calls';
import type { SetQuery } from './list-columns';
import { LIST_SEARCH_ID, ListFilters } from './list-filters';
import { Results } from './results';
import { useRowSelection } from './row-selection';
import { SavedViews } from './saved-views';
import { useSlashFocuses } from './search-shortcut';

function ApplicationsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  // A change of filter waits for the console's loaders before the address changes; the page
  // shows the view on its way meanwhile, so a ticked box stays ticked.
  const location = useLocation();
  const { location: pending } = useNavigation();
  const query = listQueryFromSearch(
    pending && pending.pathname === location.pathname
      ? new URLSearchParams(pending.search)
      : searchParams,
  );
  const search = listQueryString(query);
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  const canExport = me?.permissions.includes('exports.run') ?? false;
  const canDecide = me?.permissions.includes('decisions.manage') ?? false;
  const canEvaluate = me?.permissions.includes('credit.evaluate') ?? false;
  const canMark = me?.permissions.includes('checklist.mark') ?? false;
  const selection = useRowSelection(listQueryString(query, { paging: false }));
  useSlashFocuses(LIST_SEARCH_ID);
  // Synchronous, so a ticked box or a chosen option shows at once instead of flicking back
  // until the navigation lands.
  const setQuery: SetQuery = (next, options) =>
    setSearchParams(searchOfListQuery(next), {
      replace: options?.replace ?? false,
      flushSync: true,
    });

  const found = useQuery({
    queryKey: listKeys.list(search),
    queryFn: ({ signal }) => listCalls.list(search, signal),
    // The rows already shown stay while the next page or filter loads, so nothing jumps.
    placeholderData: keepPreviousData,
  });

  return (
    <>
      <PageHeading
        title="Applications"
        intro="Every application, newest activity first. Search, filter and sort; the address keeps the view, so it can be shared or saved."
      />
      <ListFilters query={query} setQuery={setQuery} onSearch={setSearchParams} />
      <Results query={query} setQuery={setQuery} found={found} selection={selection} />
      {canMark ? (
        <BulkChecklistPanel
          query={query}
          total={found.data?.total ?? null}
          totalExact={found.data?.total_exact ?? false}
          selected={selection.ids}
        />
      ) : null}
      {/* After the results, which a laptop's screen shows first without scrolling. */}
      <SavedViews search={listQueryString(withPage(query, 1))} />
      {canDecide ? <DecisionBatchPanel query={query} /> : null}
      <AssignListPanel query={query} />
      {canEvaluate ? <EstimateBatchPanel query={query} /> : null}
      {canExport ? <ExportPanel query={query} total={found.data?.total ?? null} /> : null}
    </>
  );
}

export { ApplicationsPage as Component };
