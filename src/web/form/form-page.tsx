import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { DocumentAnswersResponse } from '../../shared/api/documents';
import { applicationModel } from '../../shared/application/application-model';
import type { KeyResolver } from '../../shared/form/conditions';
import type { Page, Repeat, Tabs } from '../../shared/form/model';
import { chosenTab } from '../../shared/form/resolve';
import { todayIso, validateAnswers } from '../../shared/form/validate';
import { COMPLETION_ROUTE, DEFAULT_ROUTE, FORM_STEPS } from '../../shared/routes';
import { useFormSession } from '../app-state/form-session-context';
import { hasContent, nonEmpty } from '../app-state/local-copy';
import { indexModel, keysOfItems } from '../app-state/model-index';
import { trackedCall } from '../app-state/tracked-call';
import { documentAnswersQueryOptions, resetDocumentData } from '../data/documents';
import { postJson, putJson, ServerError } from '../data/http-client';
import { queryKeys } from '../data/query-keys';
import { useTenantConfig } from '../data/tenant';
import { Modal } from '../modal/modal';
import { readNavigationState } from '../navigation/navigation-state';
import { useStore } from '../state/create-store';
import { useToast } from '../toast/use-toast';
import { Button } from '../ui/button';
import { useHeadingFocus } from '../ui/use-heading-focus';
import { whenIdle } from '../ui/when-idle';
import { ErrorSummary, focusField } from './error-summary';
import { preloadFileQuestion } from './field';
import { type FormActions, FormContext, type FormContextValue } from './form-context';
import { FormErrorDialog } from './form-error-dialog';
import styles from './form-page.module.css';
import { createFormTools, FormToolsContext } from './form-tools';
import { ItemList, preloadCourseworkGrid, preloadSignedInTabs } from './items';
import { SaveStatus } from './save-status';
import { buildSummary, keyPlaces } from './summary';
import { useFirstSectionsFirst } from './use-first-sections-first';

/** The answer store's view of the model; the form route hands it to the session as it loads. */
export const answerModel = indexModel(applicationModel);
const places = keyPlaces(applicationModel);
const PAGE_ORDER = applicationModel.pages.map((page) => page.route);
const identity: KeyResolver = (key) => key;

const NOT_SUBMITTED_MESSAGE = 'Your application was not submitted. Please try again.';
const NOT_SAVED_MESSAGE =
  'We could not save your latest answers, so your application was not submitted. Please check your connection and try again.';

/** The file questions with a converted document, when the list has loaded. */
function convertedKeys(documents: DocumentAnswersResponse | undefined): Set<string> | undefined {
  return documents ? new Set(Object.keys(documents)) : undefined;
}

/** The titles of the page's error toasts; each names its action, which clears it on success. */
const tabsErrorTitle = (label: string) => `Error handling tabs for ${label}`;
const addAnotherErrorTitle = (repeat: Repeat) => `Error adding another ${repeat.addLabel}`;

/** The three form routes share this component; each page of the model renders by its route. */
function FormPage() {
  const { pathname } = useLocation();
  const page = applicationModel.pages.find((candidate) => candidate.route === pathname);
  return page ? <FormPageContent key={page.id} page={page} /> : null;
}

interface PendingSwitch {
  tabs: Tabs;
  from: string;
  to: string;
  resolve: (confirmed: boolean) => void;
}

function FormPageContent({ page }: { page: Page }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const toast = useToast();
  const session = useFormSession();
  const { answers: answerStore, summary: summaryState, tabGuard } = session;
  const isLoggedIn = useStore(session.snapshot.store, (snapshot) => snapshot.isLoggedIn);
  const webStatus = useStore(session.snapshot.store, (snapshot) => snapshot.webStatus);
  const validating = webStatus === 'validating';
  const tools = session.startFormTools((owner) => createFormTools(queryClient, owner));
  const { autosave } = tools;
  const today = todayIso();
  const courseworkRules = useTenantConfig().coursework;
  const heading = useRef<HTMLHeadingElement>(null);
  // '/{page}#{key}' lands on a field, which must be drawn when the page first renders.
  const drawnItems = useFirstSectionsFirst(page.items, location.hash.length > 1);
  const summaryRef = useRef<HTMLElement>(null);
  const [submitting, setSubmitting] = useState(false);
  const [pendingSwitch, setPendingSwitch] = useState<PendingSwitch | null>(null);
  const [submitFailure, setSubmitFailure] = useState<string | null>(null);
  const submitButton = useRef<HTMLButtonElement>(null);

  // The summary is worked out when the page opens (or from the submit that led here), so it
  // does not shift the page while the applicant types; the fields' own messages are live.
  const [submitErrors] = useState(summaryState.peekSubmitErrors);
  const summary = useMemo(() => {
    if (!validating) return null;
    const documents = queryClient.getQueryData<DocumentAnswersResponse>(queryKeys.documentAnswers);
    const errors =
      submitErrors ??
      validateAnswers(applicationModel, answerStore.formState(), {
        today,
        documents: convertedKeys(documents),
        coursework: courseworkRules,
      });
    return buildSummary(errors, places, PAGE_ORDER);
  }, [validating, submitErrors, today, queryClient, answerStore, courseworkRules]);

  useEffect(() => {
    if (!submitErrors) return;
    summaryState.clearSubmitErrors();
    summaryRef.current?.focus();
  }, [submitErrors, summaryState]);

  useHeadingFocus(heading);

  // The widgets of the later pages load once this one is ready, while the applicant reads it.
  useEffect(
    () =>
      whenIdle(() => {
        preloadFileQuestion();
        preloadCourseworkGrid();
        if (isLoggedIn) preloadSignedInTabs();
      }),
    [isLoggedIn],
  );

  // '/{page}#{key}' lands on the field: scrolled to and focused.
  const { hash, key: locationKey } = location;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new navigation to the same hash (a second click on one summary link) must land again.
  useEffect(() => {
    if (hash.length > 1) focusField(decodeURIComponent(hash.slice(1)));
  }, [hash, locationKey]);

  // Answers carried in the navigation state from the account screens join the account too.
  const carried = readNavigationState(location.state).answers;
  useEffect(() => {
    if (!isLoggedIn || !carried) return;
    void session.carryInAnswers(carried).then(() => {
      navigate(`${location.pathname}${location.search}${location.hash}`, {
        replace: true,
        state: null,
      });
    });
  }, [isLoggedIn, carried, session, navigate, location.pathname, location.search, location.hash]);

  const confirmSwitch = useCallback(
    (tabs: Tabs, from: string, to: string) =>
      new Promise<boolean>((resolve) => setPendingSwitch({ tabs, from, to, resolve })),
    [],
  );

  const actions = useMemo<FormActions>(
    () => ({
      async switchTab(tabs, to) {
        const from = chosenTab(tabs, answerStore.formState());
        if (from === to) return;
        if (!(await tabGuard.canSwitch(tabs, from, to))) return;
        const hiddenTab = tabs.tabs.find((tab) => tab.id === from);
        const losing = keysOfItems(hiddenTab?.items ?? []).some((key) =>
          hasContent(answerStore.get(key)),
        );
        if (losing && !(await confirmSwitch(tabs, from, to))) return;
        const label = tabs.tabs.find((tab) => tab.id === to)?.label ?? to;
        try {
          await tabGuard.beforeSwitch(tabs, from, to);
          await trackedCall(queryClient, () =>
            putJson('/api/tabs', { tab_id: tabs.id, chosen_tab: to }),
          );
          answerStore.setTab(tabs.id, to);
          queryClient.setQueryData<Record<string, string>>(queryKeys.tabs, (old) => ({
            ...old,
            [tabs.id]: to,
          }));
          void autosave.flush();
          toast.resolve(tabsErrorTitle(label));
        } catch {
          toast.error(tabsErrorTitle(label));
          // A failed switch may have deleted some of the hidden tab's files already.
          void resetDocumentData(queryClient);
        }
      },
      async addAnother(repeat: Repeat) {
        const current = answerStore.repeatCount(repeat.id) ?? 1;
        const next = Math.min(current + 1, repeat.instances.length);
        try {
          await trackedCall(queryClient, () =>
            putJson('/api/add-another', { button_id: repeat.id, num_components: next }),
          );
          answerStore.setRepeatCount(repeat.id, next);
          queryClient.setQueryData<Record<string, number>>(queryKeys.addAnother, (old) => ({
            ...old,
            [repeat.id]: next,
          }));
          toast.resolve(addAnotherErrorTitle(repeat));
          return true;
        } catch {
          toast.error(addAnotherErrorTitle(repeat));
          return false;
        }
      },
    }),
    [queryClient, toast, autosave, confirmSwitch, answerStore, tabGuard],
  );

  const context = useMemo<FormContextValue>(
    () => ({
      store: answerStore,
      page,
      isLoggedIn,
      validating,
      today,
      currentYear: Number(today.slice(0, 4)),
      actions,
    }),
    [page, isLoggedIn, validating, today, actions, answerStore],
  );

  const stepIndex = FORM_STEPS.findIndex((step) => step.route === page.route);
  const nextStep = FORM_STEPS[stepIndex + 1];

  function toSignUp(): boolean {
    const answers = session.anonymousAnswers();
    if (!answers) return false;
    navigate('/signup', { state: { answers } });
    return true;
  }

  function saveAndContinue() {
    if (!nextStep) return;
    // Spec 001 section 2: an anonymous visitor with answers moving on goes to sign-up.
    if (!isLoggedIn && toSignUp()) return;
    navigate(nextStep.route);
    window.scrollTo({ top: 0 });
  }

  async function submit() {
    if (!isLoggedIn) {
      navigate('/signup', { state: { answers: nonEmpty(answerStore.getAll()) } });
      return;
    }
    setSubmitting(true);
    try {
      // A coursework grid the server would refuse is kept on this device: the checks below name
      // its entries in the summary, as they would any other answer to correct.
      if (!(await autosave.flush()) && autosave.getState() !== 'held') {
        setSubmitFailure(NOT_SAVED_MESSAGE);
        return;
      }
      if (webStatus !== 'validating') await session.postWebStatus('validating');
      // Without the list of documents the server alone checks them.
      const documents = await queryClient
        .fetchQuery(documentAnswersQueryOptions)
        .catch(() => undefined);
      const errors = validateAnswers(applicationModel, answerStore.formState(), {
        today,
        documents: convertedKeys(documents),
        coursework: courseworkRules,
      });
      await trackedCall(queryClient, () => postJson('/api/validations', { errors })).catch(
        (error: unknown) => console.error('Could not record the validation report.', error),
      );
      if (Object.keys(errors).length > 0) {
        returnWithErrors(errors);
        return;
      }
      if (answerStore.heldKeys().length > 0) {
        setSubmitFailure(NOT_SAVED_MESSAGE);
        return;
      }
      try {
        await trackedCall(queryClient, () => postJson('/api/submit'));
      } catch (error) {
        // The server validates again; its errors are shown the same way.
        if (error instanceof ServerError && error.status === 422) {
          returnWithErrors(error.errors ?? {});
          return;
        }
        if (!(error instanceof ServerError && error.status === 409)) throw error;
      }
      await session
        .postWebStatus('submitted')
        .catch((error: unknown) => console.error('Could not record the submitted status.', error));
      navigate(COMPLETION_ROUTE, { replace: true });
    } catch (error) {
      setSubmitFailure(error instanceof ServerError ? error.message : NOT_SUBMITTED_MESSAGE);
    } finally {
      setSubmitting(false);
    }
  }

  function returnWithErrors(errors: Record<string, string[]>) {
    summaryState.showAfterSubmit(errors);
    navigate(DEFAULT_ROUTE);
    window.scrollTo({ top: 0 });
  }

  return (
    <FormToolsContext value={tools}>
      <FormContext.Provider value={context}>
        {summary && summary.count > 0 ? (
          <ErrorSummary ref={summaryRef} summary={summary} currentRoute={page.route} />
        ) : null}
        <div className={styles.header}>
          <p className={styles.step}>
            Step {stepIndex + 1} of {FORM_STEPS.length}
          </p>
          <div className={styles.titleRow}>
            <h1 ref={heading} tabIndex={-1} className={styles.title}>
              {page.title}
            </h1>
            {isLoggedIn ? <SaveStatus autosave={autosave} announced={false} /> : null}
          </div>
        </div>
        <div className={styles.sections}>
          <ItemList items={drawnItems} prefix="" instance={null} resolveKey={identity} depth={0} />
        </div>
        <div className={styles.footer}>
          {isLoggedIn ? <SaveStatus autosave={autosave} announced /> : null}
          <div className={styles.actions}>
            {nextStep ? (
              <Button
                type="button"
                variant="primary"
                className={styles.saveAndContinue}
                onClick={saveAndContinue}
              >
                Save and Continue
              </Button>
            ) : (
              <Button
                ref={submitButton}
                type="button"
                variant="primary"
                className={styles.submit}
                onClick={submit}
                disabled={submitting}
              >
                {submitting ? 'Submitting...' : 'Submit'}
              </Button>
            )}
          </div>
        </div>
        <FormErrorDialog
          autosave={autosave}
          submitFailure={submitFailure}
          onSubmitFailureClose={() => setSubmitFailure(null)}
          onRetrySubmit={submit}
          submitButtonRef={submitButton}
        />
        <Modal
          title="Switch and clear your answers?"
          size="xs"
          open={pendingSwitch !== null}
          onOpenChange={(open) => {
            if (!open && pendingSwitch) {
              pendingSwitch.resolve(false);
              setPendingSwitch(null);
            }
          }}
        >
          {pendingSwitch ? (
            <>
              <p>
                Only one way of answering is kept. If you switch to “
                {pendingSwitch.tabs.tabs.find((tab) => tab.id === pendingSwitch.to)?.label}”, what
                you entered under “
                {pendingSwitch.tabs.tabs.find((tab) => tab.id === pendingSwitch.from)?.label}” is
                cleared.
              </p>
              <div className={styles.dialogActions}>
                <Button
                  type="button"
                  variant="secondary"
                  onClick={() => {
                    pendingSwitch.resolve(false);
                    setPendingSwitch(null);
                  }}
                >
                  Cancel
                </Button>
                <Button
                  type="button"
                  variant="primary"
                  onClick={() => {
                    pendingSwitch.resolve(true);
                    setPendingSwitch(null);
                  }}
                >
                  Switch and clear
                </Button>
              </div>
            </>
          ) : null}
        </Modal>
      </FormContext.Provider>
    </FormToolsContext>
  );
}

export { useFormSession } from '../app-state/form-session-context';
// The status page's upload of a document awaited after submit takes these from this chunk: were
// they imported on their own, the bundler would split them off the form page's first load. The
// upload control itself is a chunk of its own, which the status page loads beside this one.
export { documentAnswersQueryOptions } from '../data/documents';
export { createFormTools, FormToolsContext } from './form-tools';
export { FormPage as Component };
