import { type CourseworkRules, DEFAULT_COURSEWORK_RULES } from '../coursework/coursework-grading';
import type { CourseworkTotals } from '../coursework/coursework-totals';
import { choiceSource } from './choices';
import { isAnswered } from './conditions';
import {
  type Answers,
  type AnswerValue,
  type Block,
  courseworkAnswerField,
  DESC_SUFFIX,
  type Field,
  type FormModel,
  type FormState,
  type Item,
  type OptionItem,
  type Page,
  type Repeat,
  type Tabs,
  type Widget,
} from './model';
import {
  type CourseworkProjection,
  courseworkProjection,
  courseworkValue,
  type PrintableCoursework,
} from './printable-coursework';
import { chosenTab, hiddenAnswersPatch, type ResolvedField, resolvePage } from './resolve';
import {
  type Branch,
  branchesOf,
  enterBranch,
  type ItemPlace,
  keyAt,
  type PathStep,
  rootPlace,
} from './traverse';

/**
 * The printable projection of an application: what the read-only (service user) view and the
 * application PDF both show, so the two can never disagree (spec 000 sections 1 and 6, spec 001
 * section 6). Built from the form model through the form's own visibility rules (`resolve.ts`,
 * `conditions.ts`): hidden answers are cleared as the form clears them, and a field appears only
 * where the form would show it.
 *
 * Pages keep their title and route. A page's titled blocks are its groups; items outside any
 * titled block form untitled groups between them. A group (and a titled block, repeat instance or
 * repeat inside it) appears only when at least one of its answers exists; inside a group that
 * appears, every visible question has a row, answered or not, so a reader sees `[ ]` as well as
 * `[X]`. Values:
 * - inputs (text, e-mail, text area, date, phone, year) as plain text;
 * - checkboxes and confirmation checkboxes or buttons as `[X]` or `[ ]`, followed by the content
 *   they reveal;
 * - selects, months and radio groups as the selected label (radio groups also list every option
 *   with the selected one marked), followed by the content of the chosen answer;
 * - a school search as one line of text;
 * - a file question as 'Document attached' with its answer key, for a link to (or, in the PDF,
 *   the appended copy of) the converted document;
 * - a coursework grid as its terms and their courses (blank rows left out), each course marked
 *   when the repeat rule counts another attempt instead, with the college's subtotals; the
 *   application's totals are `PrintableApplication.coursework`.
 * Add-another blocks list their instances with the prefix of each; tabs show the chosen tab only.
 *
 * With `answeredOnly` (the staff console's reading view) the same walk leaves out every row
 * without an answer (unticked checkboxes and unattached documents too) and, in radio groups, the
 * options not chosen; a block, tab or group left with no row goes with them. The read-only view
 * and the PDF call it without the option and keep every row.
 */

export const DOCUMENT_ATTACHED = 'Document attached';
export const CHECKED_MARK = '[X]';
export const UNCHECKED_MARK = '[ ]';

/** What the application holds for one file question (spec 000: document_answer). */
export interface PrintableDocumentInput {
  file_name?: string;
  file_size?: number;
  /**
   * The conversion status the documents API reports (its DocumentStatus). Only 'COMPLETED' reads
   * as converted; the engine takes the plain string so it does not depend on the API's module.
   * Without a status the document counts as converted, as GET /api/document-answer lists them.
   */
  status?: string;
}

/** The stored state of an application: answers, add-another counts, chosen tabs and documents. */
export interface PrintableState {
  answers: Answers;
  addAnother?: Readonly<Record<string, number>>;
  tabs?: Readonly<Record<string, string>>;
  documents?: Readonly<Record<string, PrintableDocumentInput>>;
  /** The tenant's rules for the transfer GPA and units; the defaults without them. */
  courseworkRules?: CourseworkRules;
}

/** How much of the application the projection keeps. */
export interface PrintableOptions {
  /** Only answered rows and chosen options: the staff reading view. False by default. */
  answeredOnly?: boolean;
}

export interface PrintableOption {
  value: string;
  label: string;
  selected: boolean;
}

/** One answered (or not) part of a school search: the school's name, city, CEEB code... */
export interface PrintableSchoolPart {
  key: string;
  label: string;
  text: string;
}

export type {
  PrintableCourse,
  PrintableCoursework,
  PrintableTerm,
} from './printable-coursework';

export type PrintableValue =
  | PrintableCoursework
  | { kind: 'text'; text: string }
  | { kind: 'checkbox'; checked: boolean; mark: typeof CHECKED_MARK | typeof UNCHECKED_MARK }
  | {
      kind: 'choice';
      /** The stored code, '' when unanswered. */
      value: string;
      /** The selected label, '' when unanswered. */
      label: string;
      /** Radio groups: every option, the chosen one selected. Null for selects. */
      options: readonly PrintableOption[] | null;
    }
  | { kind: 'school'; text: string; parts: readonly PrintableSchoolPart[] }
  | {
      kind: 'document';
      answerKey: string;
      attached: boolean;
      /** DOCUMENT_ATTACHED when attached, else ''. */
      text: string;
      fileName: string | null;
    };

export interface PrintableRow {
  kind: 'row';
  /** The full answer key (with the instance prefix); a school search's is its name key. */
  key: string;
  label: string;
  widget: Widget | 'schoolSearch';
  answered: boolean;
  value: PrintableValue;
}

export interface PrintableBlock {
  kind: 'block';
  id: string;
  title: string | null;
  description: string | null;
  layout: 'address' | null;
  entries: readonly PrintableEntry[];
}

export interface PrintableInstance {
  index: number;
  /** Joined to every key of the instance: `hs_2_`. */
  prefix: string;
  label: string;
  entries: readonly PrintableEntry[];
}

export interface PrintableRepeat {
  kind: 'repeat';
  id: string;
  title: string | null;
  instances: readonly PrintableInstance[];
}

export interface PrintableTabs {
  kind: 'tabs';
  id: string;
  label: string;
  chosen: { id: string; label: string };
  entries: readonly PrintableEntry[];
}

export type PrintableEntry = PrintableRow | PrintableBlock | PrintableRepeat | PrintableTabs;

export interface PrintableGroup {
  /** The titled block's id; for items outside any, the first item's key or id. */
  id: string;
  title: string | null;
  description: string | null;
  entries: readonly PrintableEntry[];
}

export interface PrintablePage {
  id: string;
  route: string;
  title: string;
  groups: readonly PrintableGroup[];
}

export interface PrintableApplication {
  pages: readonly PrintablePage[];
  /** The transfer GPA and units of every grid; null when no course is entered. */
  coursework: CourseworkTotals | null;
}

/** The one line a value prints as. */
export function printableText(value: PrintableValue): string {
  switch (value.kind) {
    case 'checkbox':
      return value.mark;
    case 'choice':
      return value.label;
    default:
      return value.text;
  }
}

/** Every row of some entries, depth first in reading order. */
export function printableRows(entries: readonly PrintableEntry[]): PrintableRow[] {
  const rows: PrintableRow[] = [];
  const visit = (list: readonly PrintableEntry[]) => {
    for (const entry of list) {
      if (entry.kind === 'row') rows.push(entry);
      else if (entry.kind === 'repeat')
        for (const instance of entry.instances) visit(instance.entries);
      else visit(entry.entries);
    }
  };
  visit(entries);
  return rows;
}

/** The attached documents in reading order: the order the PDF appends them in. */
export function attachedDocuments(
  application: PrintableApplication,
): Array<{ page: PrintablePage; row: PrintableRow; answerKey: string; fileName: string | null }> {
  const documents: ReturnType<typeof attachedDocuments> = [];
  for (const page of application.pages) {
    for (const group of page.groups) {
      for (const row of printableRows(group.entries)) {
        if (row.value.kind === 'document' && row.value.attached)
          documents.push({
            page,
            row,
            answerKey: row.value.answerKey,
            fileName: row.value.fileName,
          });
      }
    }
  }
  return documents;
}

/**
 * Whether each field place is shown, as `resolvePage` decided, looked up by where the projection's
 * walk stands: the same traversal gives both the same path and key.
 */
class PlaceVisibility {
  private readonly places = new Map<string, ResolvedField>();

  constructor(resolved: readonly ResolvedField[]) {
    for (const place of resolved) this.places.set(placeId(place.path, place.key), place);
  }

  at(place: ItemPlace, key: string): ResolvedField | null {
    return this.places.get(placeId(place.path, key)) ?? null;
  }
}

function placeId(path: readonly PathStep[], key: string): string {
  return JSON.stringify([path, key]);
}

interface WalkContext {
  place: ItemPlace;
  places: PlaceVisibility;
  state: FormState;
  documents: Readonly<Record<string, PrintableDocumentInput>>;
  coursework: CourseworkProjection;
  answeredOnly: boolean;
}

const CHOICE_WIDGETS: ReadonlySet<Widget> = new Set([
  'select',
  'radio',
  'conditionalSelect',
  'month',
]);
const CHECK_WIDGETS: ReadonlySet<Widget> = new Set([
  'checkbox',
  'confirmCheckbox',
  'confirmButton',
]);

function textOf(value: AnswerValue | undefined): string {
  if (value === undefined || value === false) return '';
  return value === true ? 'true' : value;
}

function optionsOf(field: Field, answers: Answers, resolveKey: (key: string) => string) {
  const controllerKey = field.optionsFrom?.controllerKey;
  const controller = controllerKey ? textOf(answers[resolveKey(controllerKey)]) : undefined;
  return choiceSource(field, controller).options;
}

function choiceValue(
  field: Field,
  key: string,
  answers: Answers,
  resolveKey: (key: string) => string,
  answeredOnly: boolean,
): PrintableValue {
  const value = textOf(answers[key]);
  const options: readonly OptionItem[] = optionsOf(field, answers, resolveKey);
  const label =
    value === ''
      ? ''
      : (options.find((option) => option.value === value)?.label ??
        (textOf(answers[`${key}${DESC_SUFFIX}`]) || value));
  return {
    kind: 'choice',
    value,
    label,
    options:
      field.widget === 'radio'
        ? options
            .filter((option) => option.value !== '' && (!answeredOnly || option.value === value))
            .map((option) => ({ ...option, selected: option.value === value }))
        : null,
  };
}

function documentValue(key: string, context: WalkContext): PrintableValue {
  const stored = context.documents[key];
  const converted = stored !== undefined && (stored.status ?? 'COMPLETED') === 'COMPLETED';
  const attached = converted || isAnswered(context.state.answers[key]);
  return {
    kind: 'document',
    answerKey: key,
    attached,
    text: attached ? DOCUMENT_ATTACHED : '',
    fileName: attached ? (stored?.file_name ?? null) : null,
  };
}

function fieldValue(place: ResolvedField, context: WalkContext): PrintableValue {
  const { field, key } = place;
  const answers = context.state.answers;
  if (field.widget === 'file') return documentValue(key, context);
  if (field.widget === 'coursework') return courseworkValue(context.coursework, key);
  if (CHECK_WIDGETS.has(field.widget)) {
    const checked = isAnswered(answers[key]);
    return { kind: 'checkbox', checked, mark: checked ? CHECKED_MARK : UNCHECKED_MARK };
  }
  if (CHOICE_WIDGETS.has(field.widget))
    return choiceValue(field, key, answers, place.resolveKey, context.answeredOnly);
  return { kind: 'text', text: textOf(answers[key]) };
}

function valueAnswered(value: PrintableValue): boolean {
  switch (value.kind) {
    case 'checkbox':
      return value.checked;
    case 'choice':
      return value.value !== '';
    case 'document':
      return value.attached;
    default:
      return value.text !== '';
  }
}

/** Whether any row inside holds an answer: the rule for showing a group. */
export function hasAnswer(entries: readonly PrintableEntry[]): boolean {
  return printableRows(entries).some((row) => row.answered);
}

function walkItems(items: readonly Item[], context: WalkContext): PrintableEntry[] {
  return items.flatMap((item) => walkItem(item, context));
}

/** The entries of one branch of an item: the place inside it comes from the model's traversal. */
function walkBranch(branch: Branch, context: WalkContext): PrintableEntry[] {
  return walkItems(branch.items, { ...context, place: enterBranch(branch, context.place) });
}

function walkItem(item: Item, context: WalkContext): PrintableEntry[] {
  switch (item.kind) {
    case 'field':
      return walkField(item, context);
    case 'block':
      return walkBlock(item, context);
    case 'repeat':
      return walkRepeat(item, context);
    case 'tabs':
      return walkTabs(item, context);
    case 'switch':
      // Every case is walked; only the first that holds has visible places.
      return branchesOf(item).flatMap((branch) => walkBranch(branch, context));
    case 'coursework':
      return walkField(courseworkAnswerField(item), context);
  }
}

function walkField(field: Field, context: WalkContext): PrintableEntry[] {
  const place = context.places.at(context.place, keyAt(context.place, field.key));
  const entries: PrintableEntry[] = [];
  if (place?.visible) {
    const value = fieldValue(place, context);
    const answered = valueAnswered(value);
    if (answered || !context.answeredOnly)
      entries.push({
        kind: 'row',
        key: place.key,
        label: field.label,
        widget: field.widget,
        answered,
        value,
      });
  }
  // Revealed and answer-specific content follows its question; resolvePage decided what shows.
  for (const branch of branchesOf(field)) entries.push(...walkBranch(branch, context));
  return entries;
}

function walkBlock(block: Block, context: WalkContext): PrintableEntry[] {
  if (block.layout === 'schoolSearch') {
    // The line is made of every part, answered or not; then the line itself is kept or left out.
    const parts = { ...context, answeredOnly: false };
    const entries = branchesOf(block).flatMap((branch) => walkBranch(branch, parts));
    const rows = schoolSearchRows(block, entries);
    return context.answeredOnly ? rows.filter((row) => row.kind !== 'row' || row.answered) : rows;
  }
  const entries = branchesOf(block).flatMap((branch) => walkBranch(branch, context));
  if (printableRows(entries).length === 0) return [];
  if (block.title && !hasAnswer(entries)) return [];
  return [
    {
      kind: 'block',
      id: block.id,
      title: block.title ?? null,
      description: block.description ?? null,
      layout: block.layout === 'address' ? 'address' : null,
      entries,
    },
  ];
}

/** A school search reads as one line: name, street, city, state and ZIP, country, CEEB code. */
function schoolSearchRows(block: Block, entries: readonly PrintableEntry[]): PrintableEntry[] {
  const rows = printableRows(entries);
  const [nameRow] = rows;
  if (!nameRow) return [];
  const parts = rows.map((row) => ({
    key: row.key,
    label: row.label,
    text: printableText(row.value),
  }));
  const partText = (suffix: string) =>
    parts.find((part) => part.key.endsWith(suffix) && part.key !== nameRow.key)?.text ?? '';
  const ceeb = parts.find((part) => /(^|_)ceeb$/.test(part.key))?.text ?? '';
  const stateAndZip = [partText('state'), partText('zip')].filter(Boolean).join(' ');
  const line = [
    printableText(nameRow.value),
    partText('address_line_1'),
    partText('city'),
    stateAndZip,
    partText('country'),
  ]
    .filter(Boolean)
    .join(', ');
  const text = ceeb ? `${line}${line ? ' ' : ''}(CEEB code ${ceeb})` : line;
  if (block.title && text === '') return [];
  return [
    {
      kind: 'row',
      key: nameRow.key,
      label: block.title ?? nameRow.label,
      widget: 'schoolSearch',
      answered: text !== '',
      value: { kind: 'school', text, parts },
    },
  ];
}

function walkRepeat(repeat: Repeat, context: WalkContext): PrintableEntry[] {
  const instances: PrintableInstance[] = [];
  for (const branch of branchesOf(repeat)) {
    if (branch.step.kind !== 'instance' || !('instance' in branch)) continue;
    const entries = walkBranch(branch, context);
    if (hasAnswer(entries))
      instances.push({
        index: branch.step.index,
        prefix: branch.instance.prefix,
        label: branch.instance.label,
        entries,
      });
  }
  if (instances.length === 0) return [];
  return [{ kind: 'repeat', id: repeat.id, title: repeat.title ?? null, instances }];
}

function walkTabs(tabs: Tabs, context: WalkContext): PrintableEntry[] {
  const chosenId = chosenTab(tabs, context.state);
  let chosen: PrintableTabs | null = null;
  for (const branch of branchesOf(tabs)) {
    if (branch.step.kind !== 'tab' || !('tab' in branch)) continue;
    const entries = walkBranch(branch, context);
    if (branch.tab.id === chosenId)
      chosen = {
        kind: 'tabs',
        id: tabs.id,
        label: tabs.label,
        chosen: { id: branch.tab.id, label: branch.tab.label },
        entries,
      };
  }
  return chosen && printableRows(chosen.entries).length > 0 ? [chosen] : [];
}

function groupId(item: Item): string {
  return item.kind === 'field' ? item.key : item.id;
}

function printablePage(page: Page, context: Omit<WalkContext, 'places' | 'place'>): PrintablePage {
  const walk: WalkContext = {
    ...context,
    place: rootPlace(page),
    places: new PlaceVisibility(resolvePage(page, context.state)),
  };
  const groups: PrintableGroup[] = [];
  let loose: { id: string; entries: PrintableEntry[] } | null = null;
  const closeLoose = () => {
    if (loose && hasAnswer(loose.entries))
      groups.push({ id: loose.id, title: null, description: null, entries: loose.entries });
    loose = null;
  };
  for (const item of page.items) {
    if (item.kind === 'block' && item.title && item.layout !== 'schoolSearch') {
      closeLoose();
      const entries = branchesOf(item).flatMap((branch) => walkBranch(branch, walk));
      if (hasAnswer(entries))
        groups.push({
          id: item.id,
          title: item.title,
          description: item.description ?? null,
          entries,
        });
      continue;
    }
    loose ??= { id: groupId(item), entries: [] };
    loose.entries.push(...walkItem(item, walk));
  }
  closeLoose();
  return { id: page.id, route: page.route, title: page.title, groups };
}

/**
 * The printable structure of an application (see the top of this file). Pure and synchronous:
 * the browser's read-only view and the server's PDF call it with the same model and state.
 */
export function printableApplication(
  model: FormModel,
  state: PrintableState,
  options: PrintableOptions = {},
): PrintableApplication {
  const raw: FormState = {
    answers: state.answers,
    addAnother: state.addAnother ?? {},
    tabs: state.tabs ?? {},
    // A stored application belongs to an account: its chosen tabs count.
    isLoggedIn: true,
  };
  const formState: FormState = {
    ...raw,
    answers: { ...raw.answers, ...hiddenAnswersPatch(model, raw) },
  };
  const { projection: coursework, totals } = courseworkProjection(
    model,
    formState,
    state.courseworkRules ?? DEFAULT_COURSEWORK_RULES,
  );
  const context = {
    state: formState,
    documents: state.documents ?? {},
    coursework,
    answeredOnly: options.answeredOnly ?? false,
  };
  return {
    pages: model.pages.map((page) => printablePage(page, context)),
    coursework: totals,
  };
}
