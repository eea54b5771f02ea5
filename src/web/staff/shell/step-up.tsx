import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  type RefObject,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
} from 'react';
import { STEP_UP_MINUTES } from '../../../shared/staff/permissions';
import { totpCodeSchema } from '../../../shared/staff/staff-api';
import { ServerError } from '../../data/http-client';
import { Modal } from '../../modal/modal';
import modalStyles from '../../modal/modal.module.css';
import { buttonClassName } from '../../ui/button';
import { meQueryOptions, optionsQueryOptions, staffCalls, staffKeys } from './staff-calls';
import { AuthenticatorCodeField, CardForm, useStaffForm } from './staff-form';
import { runWithStepUp, STEP_UP_SSO_CODE, StepUpCancelled, ssoStepUpHref } from './step-up-flow';

export { StepUpCancelled };

export interface StepUp {
  /**
   * Runs an action that may need a fresh second factor. A refusal asking for one opens the
   * dialog; once the member confirms, the action runs again. Closing the dialog rejects with
   * StepUpCancelled.
   */
  run<T>(action: () => Promise<T>): Promise<T>;
}

const StepUpContext = createContext<StepUp | null>(null);

export function useStepUp(): StepUp {
  const stepUp = useContext(StepUpContext);
  if (!stepUp) throw new Error('useStepUp must be used inside <StepUpProvider>.');
  return stepUp;
}

interface Pending {
  confirmed: () => void;
  cancelled: () => void;
}

export function StepUpProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);
  const codeInput = useRef<HTMLInputElement | null>(null);

  const ask = useCallback(
    () =>
      new Promise<void>((resolve, reject) => {
        // A second action asking while the dialog is open waits for the same answer.
        const previous = pendingRef.current;
        const next: Pending = {
          confirmed: () => {
            previous?.confirmed();
            resolve();
          },
          cancelled: () => {
            previous?.cancelled();
            reject(new StepUpCancelled());
          },
        };
        pendingRef.current = next;
        setPending(next);
      }),
    [],
  );

  const stepUp = useMemo<StepUp>(() => ({ run: (action) => runWithStepUp(action, ask) }), [ask]);

  function settle(confirmed: boolean) {
    const current = pendingRef.current;
    pendingRef.current = null;
    setPending(null);
    if (confirmed) current?.confirmed();
    else current?.cancelled();
  }

  return (
    <StepUpContext value={stepUp}>
      {children}
      <Modal
        title="Confirm it is you"
        size="xs"
        open={pending !== null}
        initialFocusRef={codeInput}
        onOpenChange={(open) => {
          if (!open) settle(false);
        }}
        description={`This action needs a second factor from the last ${STEP_UP_MINUTES} minutes.`}
      >
        {pending ? <StepUpBody codeInput={codeInput} onConfirmed={() => settle(true)} /> : null}
      </Modal>
    </StepUpContext>
  );
}

const FIELDS = { code: { id: 'step-up-code', label: '6-digit code' } } as const;

function StepUpBody({
  codeInput,
  onConfirmed,
}: {
  codeInput: RefObject<HTMLInputElement | null>;
  onConfirmed: () => void;
}) {
  const { data: me } = useQuery({ ...meQueryOptions, enabled: false });
  const [useProvider, setUseProvider] = useState(me?.has_authenticator === false);
  return useProvider ? (
    <ProviderStepUp />
  ) : (
    <CodeStepUp
      codeInput={codeInput}
      onConfirmed={onConfirmed}
      onProvider={() => setUseProvider(true)}
    />
  );
}

function ProviderStepUp() {
  const { data: options } = useQuery(optionsQueryOptions);
  return (
    <>
      <p>
        Sign in again at the university to confirm it is you. You will come back to this page; then
        try the action again.
      </p>
      <div className={modalStyles.actions}>
        <a href={ssoStepUpHref()} className={buttonClassName('primary')}>
          {options?.sso?.label ?? 'Sign in with your university account'}
        </a>
      </div>
    </>
  );
}

function CodeStepUp({
  codeInput,
  onConfirmed,
  onProvider,
}: {
  codeInput: RefObject<HTMLInputElement | null>;
  onConfirmed: () => void;
  onProvider: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useStaffForm<{ code: string }>(totpCodeSchema, { code: '' }, FIELDS);
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = useMutation({
    mutationFn: (code: string) => staffCalls.stepUp(code),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: staffKeys.me });
      onConfirmed();
    },
    onError: (error) => {
      if (error instanceof ServerError && error.code === STEP_UP_SSO_CODE) {
        onProvider();
        return;
      }
      setFailure(form.showServerError(error));
    },
  });
  const binding = form.field('code');
  const rememberInput = (element: HTMLInputElement | null) => {
    binding.inputRef(element);
    codeInput.current = element;
  };
  return (
    <CardForm
      form={form}
      failure={failure}
      onValid={({ code }) => {
        setFailure(null);
        confirm.mutate(code);
      }}
      pending={confirm.isPending}
      label="Confirm"
      pendingLabel="Checking..."
    >
      <AuthenticatorCodeField
        id={FIELDS.code.id}
        label={FIELDS.code.label}
        hint="Enter the code your authenticator app shows now."
        binding={{ ...binding, inputRef: rememberInput }}
      />
    </CardForm>
  );
}
