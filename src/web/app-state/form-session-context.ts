import { createContext, useContext } from 'react';
import type { FormSession } from './form-session';

/** The app's one form session, provided at the root next to the query client. */
export const FormSessionContext = createContext<FormSession | null>(null);

export function useFormSession(): FormSession {
  const session = useContext(FormSessionContext);
  if (!session) throw new Error('The app must be rendered inside <FormSessionContext>.');
  return session;
}
