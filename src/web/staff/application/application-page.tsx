import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { applicationModel } from '../../../shared/application/application-model';
import { printableApplication } from '../../../shared/form/printable';
import {
  type ApplicationDetail,
  type ApplicationHistoryEntry,
  type ApplicationNeighbours,
  CHECKLIST_STATE_LABELS,
  CHECKLIST_STATES,
  type Checklist,
  type ChecklistItem,
  type ChecklistState,
} from '../../../shared/staff/application-api';
import { ServerError } from '../../data/http-client';
import { useTenantConfig } from '../../data/tenant';
import { ApplicationDocument } from '../../read-only/read-only-view';
import buttonStyles from '../../ui/button.module.css';
import { cx } from '../../ui/cx';
import { LoadingIndicator } from '../../ui/loading-indicator';
import { decisionCodesQuery } from '../decisions/decision-calls';
import { DecisionSection } from '../decisions/decision-section';
import consoleStyles from '../shell/console.module.css';
import { formatDateTime, PageHeading } from '../shell/page-heading';
import { downloadFile } from '../shell/secrets';
import { meQueryOptions } from '../shell/staff-calls';
import { FormAlert, serverMessage } from '../shell/staff-form';
import {
  applicationCalls,
  applicationDetailQuery,
  applicationHistoryQuery,
  applicationKeys,
  applicationNeighboursQuery,
  consoleDocumentLinks,
} from './application-calls';
import {
  applicantName,
  applicationPath,
  checklistAnnouncement,
  checklistSetText,
  type HistoryLabels,
  historyActionText,
  listPath,
  listQueryOf,
  missingText,
  positionText,
  queueEndMessage,
  SHORTCUT_HELP,
  SHORTCUT_KEYS,
  SHORTCUTS_STORAGE_KEY,
  type ShortcutAction,
  shortcutFor,
  shortcutsEnabledFrom,
  withListPage,
} from './application-logic';
import styles from './application-page.module.css';
import { ReceiptFact } from './receipt-fact';

const STATUS_LABELS: Record<ApplicationDetail['status'], string> = {
  started: 'Started, not submitted',
  validating: 'Being submitted',
  submitted: 'Submitted',
};

/** How long to wait for a PDF being made when the server does not say. */
const PDF_RETRY_DEFAULT_MS = 3000;
/** A PDF that is still not made after this many tries is left to the reader to ask again. */
const PDF_TRIES_MAX = 40;

function ApplicationPage() {
  const { id = '' } = useParams();
  const [searchParams] = useSearchParams();
  const listQuery = listQueryOf(searchParams);
  // A new application is a new page: its state, its announcements and the focus start afresh.
  return <ApplicationScreen key={id} id={id} listQuery={listQuery} />;
}

function ApplicationScreen({ id, listQuery }: { id: string; listQuery: string }) {
  const navigate = useNavigate();
  const detail = useQuery(applicationDetailQuery(id));
  const neighbours = useQuery(applicationNeighboursQuery(id, listQuery));
  const [queueStatus, setQueueStatus] = useState('');
  const pdf = usePdfDownload(id);

  const go = useCallback(
    (action: 'next' | 'previous') => {
      const found = neighbours.data;
      const target = found?.[action] ?? null;
      if (!found || !target) {
        setQueueStatus(queueEndMessage(action, found, neighbours.isError));
        return;
      }
      const page = action === 'next' ? found.next_page : found.previous_page;
      navigate(applicationPath(target, withListPage(listQuery, page ?? null)));
    },
    [neighbours.data, neighbours.isError, listQuery, navigate],
  );

  const shortcuts = useShortcutPreference();
  useShortcuts(shortcuts.enabled, (action) => {
    if (action === 'pdf') pdf.start();
    else go(action);
  });

  const queue = (
    <QueueNavigation
      neighbours={neighbours.data}
      failed={neighbours.isError}
      listQuery={listQuery}
      status={queueStatus}
      shortcuts={shortcuts.enabled}
    />
  );

  if (detail.isPending) {
    return (
      <>
        <p role="status" className={consoleStyles.muted}>
          <LoadingIndicator type="circles" size="xs" /> Loading the application...
        </p>
        {queue}
      </>
    );
  }
  if (detail.isError) {
    const missing = detail.error instanceof ServerError && detail.error.status === 404;
    return (
      <>
        <PageHeading
          title={missing ? 'Application not found' : 'This application cannot be shown'}
        />
        <FormAlert
          message={
            missing
              ? 'There is no application with this id. It may have been removed.'
              : serverMessage(detail.error)
          }
        />
        {queue}
      </>
    );
  }
  return <LoadedApplication detail={detail.data} queue={queue} pdf={pdf} shortcuts={shortcuts} />;
}

function LoadedApplication({
  detail,
  queue,
  pdf,
  shortcuts,
}: {
  detail: ApplicationDetail;
  queue: ReactNode;
  pdf: PdfDownload;
  shortcuts: ShortcutPreference;
}) {
  const tenant = useTenantConfig();
  const name = applicantName(detail.view.answer);
  const title = name ?? detail.email;
  const application = useMemo(
    () =>
      printableApplication(applicationModel, {
        answers: detail.view.answer,
        addAnother: detail.view.add_another,
        tabs: detail.view.tabs,
        documents: detail.view.document_answer,
      }),
    [detail.view],
  );
  const links = useMemo(() => consoleDocumentLinks(detail.id), [detail.id]);
  const codes = useQuery(decisionCodesQuery);
  // The history names checklist items, documents and decisions by key; the checklist and the
  // tenant's codes know their labels.
  const historyLabels = useMemo<HistoryLabels>(() => {
    const items = new Map<string, string>();
    const documents = new Map<string, string>();
    for (const item of detail.checklist.items) {
      items.set(item.key, item.label);
      if (item.answer_key) documents.set(item.answer_key, item.label);
    }
    const decisions = new Map((codes.data ?? []).map((code) => [code.code, code.label]));
    return {
      item: (key) => items.get(key) ?? null,
      document: (key) => documents.get(key) ?? null,
      decision: (code) => decisions.get(code) ?? null,
    };
  }, [detail.checklist.items, codes.data]);

  useEffect(() => {
    document.title = `${title} | Application | ${tenant.partner_name}`;
  }, [title, tenant.partner_name]);

  return (
    <>
      <div className={styles.head}>
        <PageHeading title={title} />
        <dl className={styles.facts}>
          {name ? (
            <div>
              <dt>Email</dt>
              <dd>{detail.email}</dd>
            </div>
          ) : null}
          <div>
            <dt>Status</dt>
            <dd>{STATUS_LABELS[detail.status]}</dd>
          </div>
          <div>
            <dt>Submitted</dt>
            <dd>
              {detail.submitted_at ? (
                <time dateTime={detail.submitted_at}>{formatDateTime(detail.submitted_at)}</time>
              ) : (
                'Not yet'
              )}
            </dd>
          </div>
          <div>
            <dt>Last activity</dt>
            <dd>
              <time dateTime={detail.last_activity}>{formatDateTime(detail.last_activity)}</time>
            </dd>
          </div>
          {detail.receipt ? (
            <ReceiptFact applicationId={detail.id} receipt={detail.receipt} />
          ) : null}
        </dl>
      </div>
      <div className={styles.actions}>
        {queue}
        <PdfAction pdf={pdf} shortcut={shortcuts.enabled} />
      </div>
      <ShortcutHelp preference={shortcuts} />
      <div className={styles.layout}>
        <ChecklistSection id={detail.id} checklist={detail.checklist} />
        <DecisionSection
          id={detail.id}
          submitted={detail.status === 'submitted'}
          decision={detail.decision}
        />
        <div className={styles.view}>
          <ApplicationDocument
            application={application}
            title="Answers"
            partnerName={tenant.partner_name}
            links={links}
            titleLevel={2}
            className={styles.document}
          />
        </div>
        <HistorySection id={detail.id} labels={historyLabels} />
      </div>
    </>
  );
}

/** Back to the list, and previous / next through it, with the reader's place in it. */
function QueueNavigation({
  neighbours,
  failed,
  listQuery,
  status,
  shortcuts,
}: {
  neighbours: ApplicationNeighbours | undefined;
  failed: boolean;
  listQuery: string;
  status: string;
  /** Whether the keys work, so the links name them only then. */
  shortcuts: boolean;
}) {
  const place = neighbours ? positionText(neighbours.position, neighbours.total) : '';
  const step = (action: 'previous' | 'next', label: string) => {
    const target = neighbours?.[action] ?? null;
    const page = action === 'next' ? neighbours?.next_page : neighbours?.previous_page;
    if (!target) {
      // The end of the list: shown in its place so the controls do not move, but not a link.
      return (
        <span className={cx(styles.step, styles.stepDisabled)}>
          {label}
          <span className="visually-hidden">
            {action === 'next' ? ' (none: this is the last)' : ' (none: this is the first)'}
          </span>
        </span>
      );
    }
    return (
      <Link
        to={applicationPath(target, withListPage(listQuery, page ?? null))}
        className={cx(buttonStyles.button, buttonStyles.secondary, styles.step)}
        aria-keyshortcuts={shortcuts ? SHORTCUT_KEYS[action] : undefined}
        rel={action === 'next' ? 'next' : 'prev'}
      >
        {label}
      </Link>
    );
  };
  return (
    <nav aria-label="Applications in the list" className={styles.queue}>
      <Link to={listPath(listQuery)} className={styles.back}>
        Back to the list
      </Link>
      <div className={styles.steps}>
        {step('previous', 'Previous')}
        <span className={styles.place}>
          {place ? (
            <>
              <span className="visually-hidden">Application </span>
              {place}
            </>
          ) : failed ? (
            'Place in the list unknown'
          ) : neighbours ? (
            'Not in the list'
          ) : null}
        </span>
        {step('next', 'Next')}
      </div>
      <p role="status" className={styles.queueStatus}>
        {status}
      </p>
    </nav>
  );
}

interface PdfDownload {
  start: () => void;
  pending: boolean;
  /** What the reader is told: preparing, downloading, or why it failed. */
  message: { kind: 'status' | 'error'; text: string } | null;
}

/**
 * The whole application as one PDF. The server may still be making it (503 with Retry-After):
 * the page says so, asks again when told, and starts the download once it is there.
 */
function usePdfDownload(id: string): PdfDownload {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<PdfDownload['message']>(null);
  const running = useRef(false);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const start = useCallback(() => {
    if (running.current) return;
    running.current = true;
    setPending(true);
    setMessage(null);
    const attempt = async (tries: number): Promise<void> => {
      try {
        const file = await applicationCalls.pdf(id);
        if (!alive.current) return;
        downloadFile(file.blob, file.fileName ?? 'application.pdf');
        setMessage({ kind: 'status', text: 'The application PDF is downloading.' });
        // The download is in the application's history now.
        void queryClient.invalidateQueries({ queryKey: applicationKeys.history(id) });
      } catch (error) {
        if (!alive.current) return;
        const preparing = error instanceof ServerError && error.status === 503;
        if (preparing && tries < PDF_TRIES_MAX) {
          const wait = Math.min(Math.max(error.retryAfterMs ?? PDF_RETRY_DEFAULT_MS, 1000), 30_000);
          setMessage({
            kind: 'status',
            text: `${error.message} It will download by itself when it is ready.`,
          });
          await new Promise((resolve) => setTimeout(resolve, wait));
          if (alive.current) return attempt(tries + 1);
          return;
        }
        setMessage({ kind: 'error', text: serverMessage(error) });
      }
    };
    void attempt(1).finally(() => {
      running.current = false;
      if (alive.current) setPending(false);
    });
  }, [id, queryClient]);

  return { start, pending, message };
}

function PdfAction({ pdf, shortcut }: { pdf: PdfDownload; shortcut: boolean }) {
  return (
    <div className={styles.pdf}>
      <button
        type="button"
        className={cx(buttonStyles.button, buttonStyles.primary)}
        aria-keyshortcuts={shortcut ? SHORTCUT_KEYS.pdf : undefined}
        aria-disabled={pdf.pending || undefined}
        onClick={pdf.start}
      >
        {pdf.pending ? 'Preparing the PDF...' : 'Download application PDF'}
      </button>
      <p role="status" className={styles.pdfStatus}>
        {pdf.message?.kind === 'status' ? pdf.message.text : ''}
      </p>
      <FormAlert message={pdf.message?.kind === 'error' ? pdf.message.text : null} />
    </div>
  );
}

/** The page's keys, listed where the reader can find them, with the switch that turns them off. */
function ShortcutHelp({ preference }: { preference: ShortcutPreference }) {
  const switchId = useId();
  return (
    <details className={styles.shortcuts}>
      <summary>Keyboard shortcuts</summary>
      <p className={consoleStyles.muted}>
        Press the key alone, outside a text field. A screen reader in browse mode may need its
        pass-through key first.
      </p>
      <dl className={styles.keys}>
        {SHORTCUT_HELP.map((entry) => (
          <div key={entry.key}>
            <dt>
              <kbd>{entry.key.toLowerCase()}</kbd>
            </dt>
            <dd>{entry.does}</dd>
          </div>
        ))}
      </dl>
      <div className={cx(consoleStyles.checkbox, styles.shortcutSwitch)}>
        <input
          id={switchId}
          type="checkbox"
          checked={preference.enabled}
          onChange={(event) => preference.setEnabled(event.target.checked)}
        />
        <label htmlFor={switchId}>Use these keyboard shortcuts</label>
      </div>
    </details>
  );
}

interface ShortcutPreference {
  enabled: boolean;
  setEnabled: (enabled: boolean) => void;
}

/** Whether the reader wants the keys, kept in this browser; on where storage is refused. */
function useShortcutPreference(): ShortcutPreference {
  const [enabled, setState] = useState(() => {
    try {
      return shortcutsEnabledFrom(window.localStorage.getItem(SHORTCUTS_STORAGE_KEY));
    } catch {
      return true;
    }
  });
  const setEnabled = useCallback((next: boolean) => {
    setState(next);
    try {
      window.localStorage.setItem(SHORTCUTS_STORAGE_KEY, next ? 'on' : 'off');
    } catch {
      // Private browsing may refuse storage: the choice then lasts for this page only.
    }
  }, []);
  return { enabled, setEnabled };
}

/** Single-letter keys for the page's commands; see shortcutFor for when they are left alone. */
function useShortcuts(enabled: boolean, onShortcut: (action: ShortcutAction) => void): void {
  const latest = useRef(onShortcut);
  useLayoutEffect(() => {
    latest.current = onShortcut;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const element = event.target instanceof HTMLElement ? event.target : null;
      const action = shortcutFor(
        event,
        element && {
          tagName: element.tagName,
          isContentEditable: element.isContentEditable,
          type: element instanceof HTMLInputElement ? element.type : undefined,
          inDialog: element.closest('[role="dialog"], [role="alertdialog"]') !== null,
        },
      );
      if (!action) return;
      event.preventDefault();
      latest.current(action);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}

function ChecklistSection({ id, checklist }: { id: string; checklist: Checklist }) {
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  const canMark = me?.permissions.includes('checklist.mark') ?? false;
  const [announcement, setAnnouncement] = useState('');
  // The same sentence twice is not read twice by every screen reader: make it differ.
  const announce = useCallback(
    (text: string) => setAnnouncement((previous) => (previous === text ? `${text}\u00a0` : text)),
    [],
  );
  return (
    <section aria-labelledby="checklist-title" className={cx(styles.panel, styles.checklist)}>
      <h2 id="checklist-title" className={styles.panelTitle}>
        Checklist
      </h2>
      <p className={consoleStyles.muted}>{missingText(checklist.missing)}</p>
      <p role="status" className={styles.announcement}>
        {announcement}
      </p>
      {checklist.items.length === 0 ? (
        <p>This application has no checklist items.</p>
      ) : (
        <ul className={styles.items}>
          {checklist.items.map((item) => (
            <ChecklistRow
              key={item.key}
              id={id}
              item={item}
              canMark={canMark}
              onMarked={announce}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function ChecklistRow({
  id,
  item,
  canMark,
  onMarked,
}: {
  id: string;
  item: ChecklistItem;
  canMark: boolean;
  onMarked: (text: string) => void;
}) {
  const queryClient = useQueryClient();
  const labelId = useId();
  const setById = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const mark = useMutation({
    mutationFn: (state: ChecklistState) => applicationCalls.mark(id, item.key, state),
    onSuccess: (checklist, state) => {
      queryClient.setQueryData<ApplicationDetail>(applicationKeys.detail(id), (old) =>
        old ? { ...old, checklist } : old,
      );
      onMarked(checklistAnnouncement(item.label, state));
      void queryClient.invalidateQueries({ queryKey: applicationKeys.history(id) });
    },
    onError: (error) => setFailure(serverMessage(error)),
  });
  const shown = mark.isPending && mark.variables ? mark.variables : item.state;

  return (
    <li className={styles.item} data-state={item.state}>
      <p id={labelId} className={styles.itemLabel}>
        {item.label}
      </p>
      <p className={styles.itemState}>
        <span className={cx(styles.badge, styles[`badge-${item.state}`])}>
          {CHECKLIST_STATE_LABELS[item.state]}
        </span>{' '}
        <span id={setById} className={styles.setBy}>
          {checklistSetText(item, formatDateTime)}
        </span>
      </p>
      {canMark ? (
        <fieldset aria-labelledby={labelId} aria-describedby={setById} className={styles.states}>
          {CHECKLIST_STATES.map((state) => (
            <button
              key={state}
              type="button"
              aria-pressed={shown === state}
              className={cx(styles.stateButton, shown === state && styles.stateButtonOn)}
              onClick={() => {
                if (mark.isPending || state === item.state) return;
                setFailure(null);
                mark.mutate(state);
              }}
            >
              {CHECKLIST_STATE_LABELS[state]}
            </button>
          ))}
        </fieldset>
      ) : null}
      <FormAlert message={failure} />
    </li>
  );
}

function HistorySection({ id, labels }: { id: string; labels: HistoryLabels }) {
  // Asked once the application has loaded, so the reading that opened the page is in it.
  const history = useQuery(applicationHistoryQuery(id));
  return (
    <section aria-labelledby="history-title" className={cx(styles.panel, styles.history)}>
      <h2 id="history-title" className={styles.panelTitle}>
        History
      </h2>
      {history.isPending ? (
        <p role="status" className={consoleStyles.muted}>
          Loading the history...
        </p>
      ) : history.isError ? (
        <FormAlert message={serverMessage(history.error)} />
      ) : history.data.length === 0 ? (
        <p>Nothing has been recorded yet.</p>
      ) : (
        <ol className={styles.entries} aria-label="Newest first">
          {history.data.map((entry) => (
            <HistoryRow key={entry.seq} entry={entry} labels={labels} />
          ))}
        </ol>
      )}
    </section>
  );
}

function HistoryRow({ entry, labels }: { entry: ApplicationHistoryEntry; labels: HistoryLabels }) {
  return (
    <li className={styles.entry}>
      <span className={styles.entryWhat}>
        {historyActionText(entry.action, entry.detail, labels)}
      </span>
      <span className={styles.entryMeta}>
        <span>{entry.actor}</span>
        {', '}
        <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
      </span>
    </li>
  );
}

export { ApplicationPage as Component };
