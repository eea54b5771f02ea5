import type { DocumentStatus } from '../api/documents';
import type { Answers, FormModel, FormState } from '../form/model';
import { hiddenAnswersPatch, resolveModel } from '../form/resolve';
import { walkModel } from '../form/traverse';
import type { TenantConfig } from '../tenant/tenant-config';
import type { Checklist, ChecklistItem, ChecklistKind, ChecklistState } from './application-api';

/*
 * An application's checklist: what the admissions office waits for before it can read the file.
 * The items follow from the model and the answers (the file questions the form shows, one
 * official transcript per college attended, the fee or its waiver) and from the tenant's own
 * list; their states come from staff marks and the applicant's converted uploads. Pure, so the
 * server's recount and any view derive the same items from the same state.
 */

/**
 * Where the model says which colleges were attended and whether the fee is waived. Named here,
 * not read from the application's modules, so the derivation serves any model; a test checks
 * that the application model has each of them.
 */
export interface ChecklistSources {
  /** The add-another repeat of colleges attended: one official transcript per college named. */
  collegesRepeatId: string;
  /** The key, inside one college's instance, of the college's name. */
  collegeNameKey: string;
  /** The question asking for a fee waiver, and the answer that asks for it. */
  feeWaiverKey: string;
  feeWaiverValue: string;
}

export const APPLICATION_CHECKLIST_SOURCES: ChecklistSources = {
  collegesRepeatId: 'colleges',
  collegeNameKey: 'name',
  feeWaiverKey: 'fee_waiver',
  feeWaiverValue: 'Y',
};

export const CHECKLIST_LABELS = {
  fee: 'Application fee',
  feeWaiver: 'Application fee waiver',
  transcript: (college: string) => `Official transcript: ${college}`,
  applicant: 'Applicant',
} as const;

/** An item of the tenant's configuration (`checklist_items`). */
export type TenantChecklistItem = TenantConfig['checklist_items'][number];

/** The stored state of an application that decides its items. */
export interface ChecklistSourceState {
  answers: Answers;
  addAnother?: Readonly<Record<string, number>>;
  tabs?: Readonly<Record<string, string>>;
}

/** One item an application has, before any state is given to it. */
export interface DerivedChecklistItem {
  key: string;
  kind: ChecklistKind;
  label: string;
  answer_key: string | null;
}

/** Every file question of a model, in the model's order (one per full key). */
function fileQuestionOrder(model: FormModel): Map<string, number> {
  const order = new Map<string, number>();
  walkModel(
    model,
    {
      item(item, place) {
        if (item.kind === 'field' && item.widget === 'file') {
          const key = `${place.prefix}${item.key}`;
          if (!order.has(key)) order.set(key, order.size);
        }
      },
    },
    null,
  );
  return order;
}

const text = (value: Answers[string] | undefined) =>
  typeof value === 'string' ? value.trim() : '';

/**
 * The items of one application, in reading order: its documents, its transcripts, the fee, then
 * the tenant's items. A file question counts where the form would show it for these answers
 * (hidden answers cleared first, as the form and the printable view clear them).
 */
export function deriveChecklistItems(
  model: FormModel,
  source: ChecklistSourceState,
  tenantItems: readonly TenantChecklistItem[] = [],
  sources: ChecklistSources = APPLICATION_CHECKLIST_SOURCES,
): DerivedChecklistItem[] {
  const raw: FormState = {
    answers: source.answers,
    addAnother: source.addAnother ?? {},
    tabs: source.tabs ?? {},
    // A stored application belongs to an account: its chosen tabs count.
    isLoggedIn: true,
  };
  const state: FormState = {
    ...raw,
    answers: { ...raw.answers, ...hiddenAnswersPatch(model, raw) },
  };
  const resolved = resolveModel(model, state);

  const documents = new Map<string, DerivedChecklistItem>();
  const transcripts: DerivedChecklistItem[] = [];
  let waiverShown = false;
  for (const place of resolved) {
    if (!place.visible) continue;
    const { field, key } = place;
    if (field.widget === 'file' && !documents.has(key)) {
      documents.set(key, {
        key: `document:${key}`,
        kind: 'document',
        label: field.label,
        answer_key: key,
      });
    }
    if (
      place.instance?.repeatId === sources.collegesRepeatId &&
      field.key === sources.collegeNameKey
    ) {
      const college = text(state.answers[key]);
      if (college !== '')
        transcripts.push({
          key: `transcript:${place.instance.index + 1}`,
          kind: 'transcript',
          label: CHECKLIST_LABELS.transcript(college),
          answer_key: null,
        });
    }
    if (key === sources.feeWaiverKey && state.answers[key] === sources.feeWaiverValue)
      waiverShown = true;
  }

  const order = fileQuestionOrder(model);
  const documentItems = [...documents.values()].sort(
    (a, b) =>
      (order.get(a.answer_key ?? '') ?? Number.MAX_SAFE_INTEGER) -
      (order.get(b.answer_key ?? '') ?? Number.MAX_SAFE_INTEGER),
  );
  return [
    ...documentItems,
    ...transcripts,
    {
      key: 'fee',
      kind: 'fee',
      label: waiverShown ? CHECKLIST_LABELS.feeWaiver : CHECKLIST_LABELS.fee,
      answer_key: null,
    },
    ...tenantItems.map(
      (item): DerivedChecklistItem => ({
        key: `tenant:${item.id}`,
        kind: 'tenant',
        label: item.label,
        answer_key: null,
      }),
    ),
  ];
}

/** A state staff (or an applicant's upload) gave an item: a row of `checklist_marks`. */
export interface ChecklistMarkRecord {
  itemKey: string;
  state: ChecklistState;
  setByType: 'staff' | 'applicant';
  setById: string | null;
  setByLabel: string | null;
  setAt: Date | string;
}

/** An uploaded document of a file question, as far as its conversion went. */
export interface ChecklistDocumentRecord {
  status: DocumentStatus;
  updatedAt: Date | string;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const time = (value: Date | string) => new Date(value).getTime();

/**
 * The items with their states. A staff mark gives an item its state; a file question whose
 * upload converted (COMPLETED) is Received from the applicant, unless staff marked the item
 * after that upload (whichever came last counts, so a better upload after "Awaiting" counts
 * again); anything else is Awaiting. Marks of items the application no longer has are ignored.
 */
export function checklistOf(
  items: readonly DerivedChecklistItem[],
  marks: readonly ChecklistMarkRecord[],
  documents: Readonly<Record<string, ChecklistDocumentRecord>> = {},
): Checklist {
  const markOf = new Map(marks.map((mark) => [mark.itemKey, mark]));
  const out: ChecklistItem[] = items.map((item) => {
    const mark = markOf.get(item.key);
    const upload = item.answer_key === null ? undefined : documents[item.answer_key];
    const uploaded = upload?.status === 'COMPLETED' ? upload : undefined;
    if (uploaded && (!mark || time(uploaded.updatedAt) > time(mark.setAt))) {
      return {
        ...item,
        state: 'received',
        set_by: { type: 'applicant', id: null, label: CHECKLIST_LABELS.applicant },
        set_at: iso(uploaded.updatedAt),
      };
    }
    if (mark) {
      return {
        ...item,
        state: mark.state,
        set_by: {
          type: mark.setByType,
          id: mark.setById,
          label:
            mark.setByLabel ??
            (mark.setByType === 'applicant' ? CHECKLIST_LABELS.applicant : 'Staff'),
        },
        set_at: iso(mark.setAt),
      };
    }
    return { ...item, state: 'awaiting', set_by: null, set_at: null };
  });
  return { items: out, missing: out.filter((item) => item.state === 'awaiting').length };
}
