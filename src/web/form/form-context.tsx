import { createContext, type ReactNode, useContext } from 'react';
import type { Page, Repeat, Tabs } from '../../shared/form/model';
import type { AnswerStore } from '../app-state/answer-store';

/** What the form page lets the items do beyond typing: calls that change the server's state. */
export interface FormActions {
  /** Switches a tab group (logged in only); resolves when done or refused. */
  switchTab(tabs: Tabs, to: string): Promise<void>;
  /** Shows one more instance of an add-another block (logged in only). */
  addAnother(repeat: Repeat): Promise<boolean>;
}

export interface FormContextValue {
  store: AnswerStore;
  page: Page;
  isLoggedIn: boolean;
  /** Spec 000 section 4: while validating, every shown field shows its errors live. */
  validating: boolean;
  /** The day dates are judged against, `YYYY-MM-DD`. */
  today: string;
  currentYear: number;
  actions: FormActions;
  /** Wraps each shown field; the keystroke benchmark counts renders with a Profiler here. */
  wrapField?: (key: string, node: ReactNode) => ReactNode;
}

export const FormContext = createContext<FormContextValue | null>(null);

export function useFormContext(): FormContextValue {
  const value = useContext(FormContext);
  if (!value) throw new Error('Form items must be rendered inside <FormContext>.');
  return value;
}
