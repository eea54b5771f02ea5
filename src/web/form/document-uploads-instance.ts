import type { QueryClient } from '@tanstack/react-query';
import type { DocumentAnswersResponse } from '../../shared/api/documents';
import { isAnswered } from '../../shared/form/conditions';
import type { Item } from '../../shared/form/model';
import {
  conversionStatusQueryOptions,
  deleteDocument,
  documentAnswersQueryOptions,
  postFileToUploadForm,
  requestUploadForm,
  startConversion,
} from '../data/documents';
import { queryKeys } from '../data/query-keys';
import type { ToastApi } from '../toast/use-toast';
import { getAutosave } from './autosave-instance';
import { createDocumentUploads, type DocumentUploads, fileKeysOfItems } from './document-uploads';
import { answerStore } from './form-session';
import { setBeforeTabSwitch, setCanSwitchTab } from './tab-switch';
import { trackedCall } from './tracked-call';
import { UploadProgressStore } from './upload-progress-store';

/** The label of each file question shown so far, to name it in messages. */
const fileLabels = new Map<string, string>();

export function nameFileQuestion(answerKey: string, label: string): void {
  fileLabels.set(answerKey, label);
}

/** Spec 001 section 8; the question is named by its label, like the tabs and add-another toasts. */
export function uploadErrorTitle(answerKey: string): string {
  return `Error uploading file for ${fileLabels.get(answerKey) ?? answerKey}`;
}

export const uploadProgress = new UploadProgressStore();

let instance: DocumentUploads | null = null;
let toast: ToastApi | null = null;
let blockedOpener: HTMLElement | null = null;

/** The control that tried the refused switch, to return the focus to once the notice closes. */
export function takeBlockedOpener(): HTMLElement | null {
  const opener = blockedOpener;
  blockedOpener = null;
  return opener;
}

/** The toasts live in React; the file questions on screen hand them over. */
export function attachUploadToasts(next: ToastApi): () => void {
  toast = next;
  return () => {
    if (toast === next) toast = null;
  };
}

/**
 * The one upload controller of the open application. It outlives the page, so an upload keeps
 * going when the applicant moves to another step, and it guards every tab switch: a tab may not
 * hide a file still on its way, and hiding a tab deletes its files.
 */
export function getDocumentUploads(queryClient: QueryClient): DocumentUploads {
  if (instance) return instance;
  const autosave = getAutosave(queryClient);
  const uploads = createDocumentUploads({
    store: uploadProgress,
    calls: {
      saveAnswers: () => autosave.flush(),
      requestUploadForm: (key) => trackedCall(queryClient, () => requestUploadForm(key)),
      postFile: postFileToUploadForm,
      startConversion: (key, body) => trackedCall(queryClient, () => startConversion(key, body)),
      conversionStatus: (key) => queryClient.fetchQuery(conversionStatusQueryOptions(key)),
      deleteDocument: (key) => trackedCall(queryClient, () => deleteDocument(key)),
    },
    effects: {
      setAnswer: (key, value) => answerStore.setMany({ [key]: value }, { dirty: false }),
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
      uploadFailed: (key, message) => toast?.error(uploadErrorTitle(key), message),
    },
  });
  answerStore.onSessionStart(() => uploads.reset());

  const documentsLoading = () =>
    queryClient.isFetching({ queryKey: queryKeys.documentAnswers }) > 0;
  const tabItems = (
    tabs: { tabs: ReadonlyArray<{ id: string; items: readonly Item[] }> },
    id: string,
  ) => tabs.tabs.find((tab) => tab.id === id)?.items ?? [];
  setCanSwitchTab(async (tabs, from) => {
    const allowed = await uploads.mayHide(
      fileKeysOfItems(tabItems(tabs, from)),
      documentsLoading(),
    );
    if (!allowed) {
      // A pressed tab takes the focus after the press is handled: the notice opens after that,
      // so it knows where to return the focus.
      requestAnimationFrame(() => {
        const opener = document.activeElement;
        blockedOpener = opener instanceof HTMLElement ? opener : null;
        uploadProgress.setBlocked(true);
      });
    }
    return allowed;
  });
  setBeforeTabSwitch(async (tabs, from) => {
    const documents = queryClient.getQueryData<DocumentAnswersResponse>(queryKeys.documentAnswers);
    // An answer without a document is cleared by the same delete: only the server writes it.
    await uploads.removeHidden(
      fileKeysOfItems(tabItems(tabs, from)),
      (key) => Boolean(documents && key in documents) || isAnswered(answerStore.get(key)),
    );
  });
  instance = uploads;
  return uploads;
}
