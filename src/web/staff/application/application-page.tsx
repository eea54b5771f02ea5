import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { applicationModel } from '../../../shared/application/application-model';
import { printableApplication } from '../../../shared/form/printable';
import type { ApplicationDetail } from '../../../shared/staff/application-api';
import { ServerError } from '../../data/http-client';
import { useTenantConfig } from '../../data/tenant';
import { ApplicationDocument } from '../../read-only/read-only-view';
import { LoadingIndicator } from '../../ui/loading-indicator';
import { CommitteeSection } from '../committee/committee-section';
import { NotesSection } from '../committee/notes-section';
import { applicationPath } from '../common/application-paths';
import { CreditSummarySection } from '../credit/credit-summary-section';
import { decisionCodesQuery } from '../decisions/decision-calls';
import { DecisionSection } from '../decisions/decision-section';
import { useQueueNavigation } from '../review/queue-position';
import { isQueueSearch, QUEUE_SEARCH } from '../review/review-logic';
import { ReviewPanel } from '../review/review-panel';
import consoleStyles from '../shell/console.module.css';
import { formatDateTime, PageHeading } from '../shell/page-heading';
import { FormAlert, serverMessage } from '../shell/staff-form';
import {
  type ApplicationDetailWithCoursework,
  applicationDetailQuery,
  applicationNeighboursQuery,
  consoleDocumentLinks,
} from './application-calls';
import { applicantName, listQueryOf, queueEndMessage, withListPage } from './application-logic';
import styles from './application-page.module.css';
import { ChecklistSection } from './checklist-section';
import { answersWithCurrentCoursework } from './coursework-updates';
import { CourseworkUpdatesSection } from './coursework-updates-section';
import { DocumentPane } from './document-pane';
import { HistorySection } from './history-section';
import type { HistoryLabels } from './history-text';
import {
  ShortcutHelp,
  type ShortcutPreference,
  useShortcutPreference,
  useShortcuts,
} from './keyboard-shortcuts';
import { APPLICATION_PDF_CHOICE, paneChoiceFor, paneDocuments } from './pane-choice';
import { PdfAction } from './pdf-action';
import { QueueNavigation } from './queue-navigation';
import { ReadingLayout, TWO_PANES_MEDIA, useMediaQuery } from './reading-layout';
import { readingSummary } from './reading-summary';
import { ReceiptFact } from './receipt-fact';
import { SisIdFact } from './sis-id-fact';
import { SummaryBand } from './summary-band';
import { type PdfDownload, usePdfDownload } from './use-pdf-download';

const STATUS_LABELS: Record<ApplicationDetail['status'], string> = {
  started: 'Started, not submitted',
  validating: 'Being submitted',
  submitted: 'Submitted',
};

function ApplicationPage() {
  const { id = '' } = useParams();
  const [searchParams] = useSearchParams();
  const fromQueue = isQueueSearch(searchParams);
  // From the reader's queue, every step carries the queue, not a list's filters.
  const listQuery = fromQueue ? QUEUE_SEARCH : listQueryOf(searchParams);
  // What the document pane shows outlives one application: the reader keeps it through the queue.
  const [paneChoice, setPaneChoice] = useState(APPLICATION_PDF_CHOICE);
  // A new application is a new page: its state, its announcements and the focus start afresh.
  return (
    <ApplicationScreen
      key={id}
      id={id}
      listQuery={listQuery}
      fromQueue={fromQueue}
      pane={{ choice: paneChoice, choose: setPaneChoice }}
    />
  );
}

interface PaneChoice {
  choice: string;
  choose: (choice: string) => void;
}

function ApplicationScreen({
  id,
  listQuery,
  fromQueue,
  pane,
}: {
  id: string;
  listQuery: string;
  fromQueue: boolean;
  pane: PaneChoice;
}) {
  const navigate = useNavigate();
  const detail = useQuery(applicationDetailQuery(id));
  const listNeighbours = useQuery({
    ...applicationNeighboursQuery(id, listQuery),
    enabled: !fromQueue,
  });
  const queueNeighbours = useQueueNavigation(id, fromQueue);
  const neighbours = fromQueue
    ? { data: queueNeighbours.neighbours, isError: queueNeighbours.failed }
    : { data: listNeighbours.data, isError: listNeighbours.isError };
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
      fromQueue={fromQueue}
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
  return (
    <LoadedApplication
      detail={detail.data}
      queue={queue}
      pdf={pdf}
      shortcuts={shortcuts}
      pane={pane}
      review={
        detail.data.status === 'submitted' ? (
          <ReviewPanel applicationId={detail.data.id} queue={fromQueue} />
        ) : undefined
      }
    />
  );
}

function LoadedApplication({
  detail,
  queue,
  pdf,
  shortcuts,
  pane,
  review,
}: {
  detail: ApplicationDetailWithCoursework;
  queue: ReactNode;
  pdf: PdfDownload;
  shortcuts: ShortcutPreference;
  pane: PaneChoice;
  /** A review form for the right column, above the documents; none by default. */
  review?: ReactNode;
}) {
  const tenant = useTenantConfig();
  const name = applicantName(detail.view.answer);
  const title = name ?? detail.email;
  // The reading view: answered questions and chosen options only (the PDF keeps every row).
  const application = useMemo(
    () =>
      printableApplication(
        applicationModel,
        {
          answers: answersWithCurrentCoursework(detail.view.answer, detail.coursework_updates),
          addAnother: detail.view.add_another,
          tabs: detail.view.tabs,
          documents: detail.view.document_answer,
          courseworkRules: tenant.coursework,
        },
        { answeredOnly: true },
      ),
    [detail.view, detail.coursework_updates, tenant.coursework],
  );
  const summary = useMemo(
    () => readingSummary(application, detail.checklist),
    [application, detail.checklist],
  );
  const documents = useMemo(() => paneDocuments(application), [application]);
  const twoPanes = useMediaQuery(TWO_PANES_MEDIA);
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
          {detail.receipt || detail.sis_id ? <SisIdFact sisId={detail.sis_id} /> : null}
        </dl>
      </div>
      <div className={styles.actions}>
        {queue}
        <PdfAction pdf={pdf} shortcut={shortcuts.enabled} />
      </div>
      <ShortcutHelp preference={shortcuts} />
      <SummaryBand summary={summary} />
      <ReadingLayout
        review={review}
        documents={
          twoPanes ? (
            <DocumentPane
              id={detail.id}
              documents={documents}
              choice={paneChoiceFor(pane.choice, documents)}
              onChoose={pane.choose}
            />
          ) : null
        }
      >
        <div className={styles.layout}>
          <div className={styles.view}>
            <ApplicationDocument
              application={application}
              title="Answers"
              partnerName={tenant.partner_name}
              links={links}
              titleLevel={2}
              className={styles.document}
            />
            <CourseworkUpdatesSection updates={detail.coursework_updates} />
          </div>
          <ChecklistSection id={detail.id} checklist={detail.checklist} />
          {detail.status === 'submitted' ? <CommitteeSection applicationId={detail.id} /> : null}
          <NotesSection applicationId={detail.id} />
          <DecisionSection
            className={`${styles.panel} ${styles.decision}`}
            id={detail.id}
            submitted={detail.status === 'submitted'}
            decision={detail.decision}
          />
          <CreditSummarySection
            id={detail.id}
            submitted={detail.status === 'submitted'}
            className={`${styles.panel} ${styles.credit}`}
            titleClassName={styles.panelTitle}
          />
          <HistorySection id={detail.id} labels={historyLabels} />
        </div>
      </ReadingLayout>
    </>
  );
}

export { ApplicationPage as Component };
