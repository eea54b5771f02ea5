import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { DocumentAnswersResponse } from '../../shared/api/documents';
import { DEFAULT_COURSEWORK_RULES } from '../../shared/coursework/coursework-grading';
import { isAnswered } from '../../shared/form/conditions';
import type { Item } from '../../shared/form/model';
import type { FormSession } from '../app-state/form-session';
import { trackedCall } from '../app-state/tracked-call';
import {
  conversionStatusQueryOptions,
  deleteDocument,
  documentAnswersQueryOptions,
  postFileToUploadForm,
  requestUploadForm,
  startConversion,
} from '../data/documents';
import { putJson } from '../data/http-client';
import { queryKeys } from '../data/query-keys';
import { tenantQueryOptions } from '../data/tenant';
import type { ToastApi } from '../toast/use-toast';
import { type Autosave, createAutosave } from './autosave';
import { courseworkHoldBack } from './coursework-hold';
import { createDocumentUploads, type DocumentUploads, fileKeysOfItems } from './document-uploads';
import { UploadProgressStore } from './upload-progress-store';

/** What the file questions on screen share with the upload controller. */
export interface UploadSession {
  readonly controller: DocumentUploads;
  readonly progress: UploadProgressStore;
  /** The label of each file question shown so far, to name it in messages. */
  nameFileQuestion(answerKey: string, label: string): void;
  /** The toasts live in React; the file questions on screen hand them over. */
  attachToasts(toast: ToastApi): () => void;
  /** The control that tried the refused switch, to return the focus to once the notice closes. */
  takeBlockedOpener(): HTMLElement | null;
}

/** The parts of a form session that load with the form pages. */
export interface FormTools {
  readonly autosave: Autosave;
  readonly uploads: UploadSession;
}

/** Spec 001 section 8; the question is named by its label, like the tabs and add-another toasts. */
export function uploadErrorTitle(label: string): string {
  return `Error uploading file for ${label}`;
}

/**
 * Made once per session by the first form page: the autosave
 * (saves on page change, before any log-out, the inactivity one included, and when the tab is
 * hidden, a phone switching apps or a closing tab, besides the debounce while typing), and the
 * one upload controller. The controller outlives the page, so an upload keeps going when the
 * applicant moves to another step, and it guards every tab switch: a tab may not hide a file
 * still on its way, and hiding a tab deletes its files.
 */
export function createFormTools(queryClient: QueryClient, session: FormSession): FormTools {
  // A coursework grid the server would refuse waits on this device until it is corrected.
  session.answers.setHoldBack(
    courseworkHoldBack(
      () =>
        queryClient.getQueryData(tenantQueryOptions.queryKey)?.coursework ??
        DEFAULT_COURSEWORK_RULES,
    ),
  );
  const autosave = createAutosave({
    store: session.answers,
    send: (patch) => trackedCall(queryClient, () => putJson('/api/answer', patch)),
    // 409: submitted meanwhile (another tab); the shell then moves to /completion.
    onStopped: () => session.snapshot.setWebStatus('submitted'),
  });
  session.beforeLogout.add(async () => {
    await autosave.flush();
  });
  session.onPageChange(() => {
    void autosave.flush();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') void autosave.flush();
  });

  return { autosave, uploads: createUploadSession(queryClient, session, autosave) };
}

function createUploadSession(
  queryClient: QueryClient,
  session: FormSession,
  autosave: Autosave,
): UploadSession {
  const { answers, tabGuard } = session;
  const progress = new UploadProgressStore();
  const fileLabels = new Map<string, string>();
  let toast: ToastApi | null = null;
  let blockedOpener: HTMLElement | null = null;

  const controller = createDocumentUploads({
    store: progress,
    calls: {
      saveAnswers: () => autosave.flush(),
      requestUploadForm: (key) => trackedCall(queryClient, () => requestUploadForm(key)),
      postFile: postFileToUploadForm,
      startConversion: (key, body) => trackedCall(queryClient, () => startConversion(key, body)),
      conversionStatus: (key) => queryClient.fetchQuery(conversionStatusQueryOptions(key)),
      deleteDocument: (key) => trackedCall(queryClient, () => deleteDocument(key)),
    },
    effects: {
      setAnswer: (key, value) => answers.setMany({ [key]: value }, { dirty: false }),
      refreshDocuments: () =>
        queryClient.fetchQuery({ ...documentAnswersQueryOptions, staleTime: 0 }),
      forgetDocument: (key) => {
        queryClient.setQueryData<DocumentAnswersResponse>(queryKeys.documentAnswers, (old) => {
          if (!old || !(key in old)) return old;
          const { [key]: _gone, ...rest } = old;
          return rest;
        });
        // Spec 000 section 4: a delete refreshes the document answers; the file is gone from the
        // screen meanwhile.
        void queryClient.invalidateQueries({ queryKey: queryKeys.documentAnswers });
      },
      uploadFailed: (key, message) =>
        toast?.error(uploadErrorTitle(fileLabels.get(key) ?? key), message),
    },
  });
  answers.onSessionStart(() => controller.reset());

  const documentsLoading = () =>
    queryClient.isFetching({ queryKey: queryKeys.documentAnswers }) > 0;
  const tabItems = (
    tabs: { tabs: ReadonlyArray<{ id: string; items: readonly Item[] }> },
    id: string,
  ) => tabs.tabs.find((tab) => tab.id === id)?.items ?? [];
  tabGuard.setCanSwitch(async (tabs, from) => {
    const allowed = await controller.mayHide(
      fileKeysOfItems(tabItems(tabs, from)),
      documentsLoading(),
    );
    if (!allowed) {
      // A pressed tab takes the focus after the press is handled: the notice opens after that,
      // so it knows where to return the focus.
      requestAnimationFrame(() => {
        const opener = document.activeElement;
        blockedOpener = opener instanceof HTMLElement ? opener : null;
        progress.setBlocked(true);
      });
    }
    return allowed;
  });
  tabGuard.setBeforeSwitch(async (tabs, from) => {
    const documents = queryClient.getQueryData<DocumentAnswersResponse>(queryKeys.documentAnswers);
    // An answer without a document is cleared by the same delete: only the server writes it.
    await controller.removeHidden(
      fileKeysOfItems(tabItems(tabs, from)),
      (key) => Boolean(documents && key in documents) || isAnswered(answers.get(key)),
    );
  });

  return {
    controller,
    progress,
    nameFileQuestion(answerKey, label) {
      fileLabels.set(answerKey, label);
    },
    attachToasts(next) {
      toast = next;
      return () => {
        if (toast === next) toast = null;
      };
    },
    takeBlockedOpener() {
      const opener = blockedOpener;
      blockedOpener = null;
      return opener;
    },
  };
}

/** The form tools of the open form pages, provided by the form page. */
export const FormToolsContext = createContext<FormTools | null>(null);

export function useFormTools(): FormTools {
  const tools = useContext(FormToolsContext);
  if (!tools) throw new Error('File questions must be rendered inside a form page.');
  return tools;
}
