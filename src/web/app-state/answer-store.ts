import { evaluate } from '../../shared/form/conditions';
import {
  type Answers,
  type AnswerValue,
  DESC_SUFFIX,
  type FormState,
  storesDesc,
} from '../../shared/form/model';
import { hiddenAnswersPatch } from '../../shared/form/resolve';
import type { LocalCopy } from './local-copy';
import { type IndexedField, type ModelIndex, optionsOf } from './model-index';

/**
 * Whether an answer must stay off the server for now: the server would refuse it as it stands
 * (a coursework grid with a grade not on the scale), so it stays dirty and in the local copy, and
 * goes once it is corrected.
 */
export type HoldBack = (
  place: IndexedField,
  value: AnswerValue,
  answers: Answers,
  fields: ReadonlyMap<string, IndexedField>,
) => boolean;

export type StoreMode = 'anonymous' | 'account';

export interface StoreSession {
  /** Changes whenever the person or the log-in changes; the store starts over then. */
  id: string;
  mode: StoreMode;
  answers: Answers;
  addAnother?: Readonly<Record<string, number>>;
  tabs?: Readonly<Record<string, string>>;
  /** Anonymous: the whole draft. Signed in: the changes not yet saved. */
  localCopy?: LocalCopy | null;
  /** Keys to save at once: changes a closed tab or an ended session left unsaved. */
  dirtyKeys?: readonly string[];
}

type Listener = () => void;

const tabKey = (tabId: string) => `tabs:${tabId}`;

/** The longest an answer given with `setSoon` waits for the page to be idle (ms). */
const SOON_LIMIT_MS = 100;

/**
 * Runs `task` once the next frame has been drawn and the page is idle, within SOON_LIMIT_MS
 * (browsers without idle callbacks: just after the frame; outside a browser: soon).
 */
function afterNextFrame(task: () => void): void {
  if (typeof requestAnimationFrame !== 'function') {
    setTimeout(task, 0);
    return;
  }
  requestAnimationFrame(() => {
    if (typeof requestIdleCallback === 'function')
      requestIdleCallback(task, { timeout: SOON_LIMIT_MS });
    else setTimeout(task, 0);
  });
}
const repeatKey = (repeatId: string) => `repeat:${repeatId}`;

/**
 * The answers of the open application, outside React (docs/design.md: "typing re-renders the changed
 * field and its dependents, not the page"). Components subscribe to single keys with
 * useSyncExternalStore, so a keystroke notifies the field itself and whatever reads that key.
 *
 * One `set` is one update: the value, its `{key}_desc` label, the conditional dropdowns that
 * follow it, and the answers that the change hides (spec 001 section 4) change together, are
 * written to the local copy together and are marked dirty together for the autosave.
 */
export class AnswerStore {
  private index: ModelIndex | null = null;
  private session: StoreSession = { id: '', mode: 'anonymous', answers: {} };
  private answers: Answers = {};
  private addAnother: Record<string, number> = {};
  private tabs: Record<string, string> = {};
  private localCopy: LocalCopy | null = null;
  private dirty = new Set<string>();
  private holdBack: HoldBack | null = null;
  private readonly keyListeners = new Map<string, Set<Listener>>();
  private readonly changeListeners = new Set<(keys: readonly string[]) => void>();
  private readonly sessionListeners = new Set<Listener>();
  /** Answers given with `setSoon` and not applied yet: the latest of each key. */
  private readonly pending = new Map<string, () => AnswerValue>();
  private pendingScheduled = false;
  private readonly derivedValues = new WeakMap<object, { state: FormState; value: unknown }>();

  /** The model decides labels, dependent dropdowns and hidden content; set once it has loaded. */
  setModel(index: ModelIndex): void {
    this.index = index;
  }

  /** The check that keeps answers the server would refuse on this device until corrected. */
  setHoldBack(check: HoldBack | null): void {
    this.holdBack = check;
  }

  get sessionId(): string {
    return this.session.id;
  }

  get mode(): StoreMode {
    return this.session.mode;
  }

  /** Starts over for another person or log-in; the same session id changes nothing. */
  startSession(session: StoreSession): void {
    if (session.id === this.session.id) return;
    this.applyPending();
    // What the last person typed reaches storage before their copy is let go.
    this.localCopy?.flush();
    const before = Object.keys(this.answers);
    this.session = session;
    this.answers = { ...session.answers };
    this.addAnother = { ...(session.addAnother ?? {}) };
    this.tabs = { ...(session.tabs ?? {}) };
    this.localCopy = session.localCopy ?? null;
    this.dirty = new Set(session.mode === 'account' ? (session.dirtyKeys ?? []) : []);
    for (const listener of this.sessionListeners) listener();
    this.notify([...new Set([...before, ...Object.keys(this.answers)])], true);
  }

  get(key: string): AnswerValue | undefined {
    return this.answers[key];
  }

  /** The current answers; a new object after every change, so it can be a React snapshot. */
  getAll(): Answers {
    return this.answers;
  }

  formState(): FormState {
    return {
      answers: this.answers,
      addAnother: this.addAnother,
      tabs: this.tabs,
      isLoggedIn: this.session.mode === 'account',
    };
  }

  /**
   * A value worked out from the form's state, kept until the answers, the add-another counts, the
   * tabs or the sign-in change, so the components of a page that need it share one computation.
   * `key` names the computation (and whatever else it reads that is not the form's state).
   */
  derived<T>(key: object, compute: (state: FormState) => T): T {
    const state = this.formState();
    const last = this.derivedValues.get(key);
    if (
      last &&
      last.state.answers === state.answers &&
      last.state.addAnother === state.addAnother &&
      last.state.tabs === state.tabs &&
      last.state.isLoggedIn === state.isLoggedIn
    )
      return last.value as T;
    const value = compute(state);
    this.derivedValues.set(key, { state, value });
    return value;
  }

  repeatCount(repeatId: string): number | undefined {
    return this.addAnother[repeatId];
  }

  chosenTab(tabId: string): string | undefined {
    return this.tabs[tabId];
  }

  /**
   * Sets an answer after the next frame is drawn, worked out then by `produce`: a coursework grid
   * keeps its rows as its own state while the applicant types and hands its text here, so the
   * grid's text, its checks and the totals that read it are not part of the keystroke. A second
   * call before then replaces the first. Everything that reads the answers outside rendering (the
   * autosave, the local copy's flush, another change, a new session) applies it first.
   */
  setSoon(key: string, produce: () => AnswerValue): void {
    this.pending.set(key, produce);
    if (this.pendingScheduled) return;
    this.pendingScheduled = true;
    afterNextFrame(() => {
      this.pendingScheduled = false;
      this.applyPending();
    });
  }

  /** Whether an answer given with `setSoon` waits to be applied. */
  isPending(key: string): boolean {
    return this.pending.has(key);
  }

  /** Applies the answers given with `setSoon` now. */
  applyPending(): void {
    if (this.pending.size === 0) return;
    const writes = [...this.pending];
    this.pending.clear();
    for (const [key, produce] of writes) this.set(key, produce());
  }

  /** Sets one answer with everything that follows from it (see the class comment). */
  set(key: string, value: AnswerValue): void {
    this.applyPending();
    const changes: Answers = { [key]: value };
    const place = this.index?.fields.get(key);
    if (place && storesDesc(place.field)) {
      const options = optionsOf(place.field, (name) => this.answers[name], place.resolveKey);
      const label = value === '' ? '' : (options.find((o) => o.value === value)?.label ?? '');
      changes[`${key}${DESC_SUFFIX}`] = label;
    }
    if (this.answers[key] !== value) {
      for (const dependent of this.index?.dependentSelects.get(key) ?? []) {
        changes[dependent] = '';
        changes[`${dependent}${DESC_SUFFIX}`] = '';
      }
    }
    this.apply(changes, this.mayHide(changes));
  }

  /** Sets several answers as they are (no labels worked out), e.g. answers carried into an account. */
  setMany(changes: Answers, { dirty = true }: { dirty?: boolean } = {}): void {
    this.applyPending();
    this.apply(changes, this.mayHide(changes), dirty);
  }

  /** The server's tab choices and add-another counts, once they are known. */
  setContainers(state: {
    tabs?: Readonly<Record<string, string>>;
    addAnother?: Readonly<Record<string, number>>;
  }): void {
    const keys: string[] = [];
    if (state.tabs) {
      this.tabs = { ...state.tabs };
      keys.push(...Object.keys(state.tabs).map(tabKey));
    }
    if (state.addAnother) {
      this.addAnother = { ...state.addAnother };
      keys.push(...Object.keys(state.addAnother).map(repeatKey));
    }
    this.notifyKeys(keys);
  }

  /** A tab switch the server accepted: the hidden tab's answers are cleared in the same update. */
  setTab(tabId: string, chosen: string): void {
    this.applyPending();
    this.tabs = { ...this.tabs, [tabId]: chosen };
    this.notifyKeys([tabKey(tabId)]);
    this.apply({}, true);
  }

  setRepeatCount(repeatId: string, count: number): void {
    this.applyPending();
    this.addAnother = { ...this.addAnother, [repeatId]: count };
    this.notifyKeys([repeatKey(repeatId)]);
    this.apply({}, true);
  }

  /**
   * The keys changed since the last save, with their current values; they stop being dirty. A
   * choice and its `_desc` label go together (the server checks one against the other), and file
   * answers never go: only the server sets them.
   */
  takeDirty(): Answers {
    this.applyPending();
    const patch: Answers = {};
    const held = new Set<string>();
    for (const key of this.dirty) {
      if (!this.savedByClient(key)) continue;
      // Held back: it stays dirty (and in the local copy) until it can be saved.
      if (this.isHeld(key)) {
        held.add(key);
        continue;
      }
      for (const pairKey of this.choicePair(key)) patch[pairKey] = this.answers[pairKey] ?? '';
    }
    this.dirty = held;
    return patch;
  }

  /** Unsaved keys kept off the server because the server would refuse them as they stand. */
  heldKeys(): string[] {
    this.applyPending();
    return [...this.dirty].filter((key) => this.isHeld(key));
  }

  /** A save that failed: its keys are dirty again (with whatever value they hold now). */
  returnDirty(patch: Answers): void {
    for (const key of Object.keys(patch)) this.dirty.add(key);
  }

  /** A save that succeeded: the local copy of unsaved answers no longer needs these. */
  markSaved(patch: Answers): void {
    if (this.session.mode === 'account') this.localCopy?.forget(patch);
  }

  /** Writes the answers the local copy holds in memory to browser storage now (the tab is hidden or left). */
  flushLocalCopy(): void {
    this.applyPending();
    this.localCopy?.flush();
  }

  /** Whether some change waits to be sent (held-back answers wait for a correction instead). */
  hasDirty(): boolean {
    this.applyPending();
    for (const key of this.dirty) if (!this.isHeld(key)) return true;
    return false;
  }

  /** Whether the visitor has typed anything (an anonymous visitor is then sent to sign-up). */
  hasAnswers(): boolean {
    this.applyPending();
    return Object.values(this.answers).some((value) => value !== '' && value !== false);
  }

  subscribeKey(key: string, listener: Listener): () => void {
    let listeners = this.keyListeners.get(key);
    if (!listeners) {
      listeners = new Set();
      this.keyListeners.set(key, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.keyListeners.delete(key);
    };
  }

  subscribeTab(tabId: string, listener: Listener): () => void {
    return this.subscribeKey(tabKey(tabId), listener);
  }

  subscribeRepeat(repeatId: string, listener: Listener): () => void {
    return this.subscribeKey(repeatKey(repeatId), listener);
  }

  /** Called after every change with the keys that changed (the autosave listens here). */
  onChange(listener: (keys: readonly string[]) => void): () => void {
    this.changeListeners.add(listener);
    return () => {
      this.changeListeners.delete(listener);
    };
  }

  onSessionStart(listener: Listener): () => void {
    this.sessionListeners.add(listener);
    return () => {
      this.sessionListeners.delete(listener);
    };
  }

  /**
   * Whether these changes can hide something, so that the clearing pass must run. Most keys hide
   * nothing; for a key that conditions read, only a change of some condition's outcome can (a
   * keystroke in a name that a condition checks for 'answered' flips it once, not every time).
   */
  private mayHide(changes: Answers): boolean {
    const index = this.index;
    if (!index) return false;
    let after: Answers | null = null;
    for (const [key, value] of Object.entries(changes)) {
      if (!index.controllingKeys.has(key) || this.answers[key] === value) continue;
      const conditions = index.conditionsByKey.get(key);
      if (!conditions) return true;
      after ??= { ...this.answers, ...changes };
      for (const { expr, resolve } of conditions)
        if (evaluate(expr, this.answers, resolve) !== evaluate(expr, after, resolve)) return true;
    }
    return false;
  }

  private isHeld(key: string): boolean {
    const index = this.index;
    const place = index?.fields.get(key);
    const value = this.answers[key];
    if (!this.holdBack || !index || !place || value === undefined) return false;
    return this.holdBack(place, value, this.answers, index.fields);
  }

  /** A completed conversion sets a file answer and a delete clears it, both on the server. */
  private savedByClient(key: string): boolean {
    return this.index?.fields.get(key)?.field.widget !== 'file';
  }

  /** The key with its companion: a choice and its `_desc` label, or just the key. */
  private choicePair(key: string): string[] {
    const fields = this.index?.fields;
    const answerKey = key.endsWith(DESC_SUFFIX) ? key.slice(0, -DESC_SUFFIX.length) : key;
    const place = fields?.get(answerKey);
    return place && storesDesc(place.field) ? [answerKey, `${answerKey}${DESC_SUFFIX}`] : [key];
  }

  private apply(requested: Answers, mayHide: boolean, markDirty = true): void {
    const changes: Answers = {};
    for (const [key, value] of Object.entries(requested))
      if (this.answers[key] !== value) changes[key] = value;
    let next = Object.keys(changes).length > 0 ? { ...this.answers, ...changes } : this.answers;
    if (mayHide && this.index) {
      const hidden = hiddenAnswersPatch(this.index.model, { ...this.formState(), answers: next });
      for (const [key, value] of Object.entries(hidden)) changes[key] = value;
      if (Object.keys(hidden).length > 0) next = { ...next, ...hidden };
    }
    const keys = Object.keys(changes);
    if (keys.length === 0) return;
    this.answers = next;
    if (this.session.mode === 'anonymous') this.localCopy?.write(changes);
    else if (markDirty) {
      const unsaved: Answers = {};
      for (const key of keys) {
        if (!this.savedByClient(key)) continue;
        this.dirty.add(key);
        unsaved[key] = changes[key] as AnswerValue;
      }
      this.localCopy?.write(unsaved);
    }
    this.notify(keys, false);
  }

  private notify(keys: readonly string[], everything: boolean): void {
    if (everything) {
      for (const listeners of [...this.keyListeners.values()])
        for (const listener of [...listeners]) listener();
    } else {
      this.notifyKeys(keys);
    }
    for (const listener of [...this.changeListeners]) listener(keys);
  }

  private notifyKeys(keys: readonly string[]): void {
    for (const key of keys) {
      const listeners = this.keyListeners.get(key);
      if (listeners) for (const listener of [...listeners]) listener();
    }
  }
}
