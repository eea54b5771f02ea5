import { useMutation } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { formErrors, resendConfirmSchema } from '../../shared/accounts/account-forms';
import { useToast } from '../toast/use-toast';
import { accountCalls, CARD_ERROR_TITLES, failureMessage, replyMessage } from './account-calls';
import { useSuccessNavigation } from './use-success-navigation';

export const CONFIRM_ROUTE = '/confirm';

/**
 * Resend of the confirmation code, offered on /login and /confirm. Returns the messages to show
 * on the username field when the address is not valid; otherwise sends, then goes to /confirm
 * with the username and the server's message (spec 000 section 4).
 */
export function useResendConfirm() {
  const location = useLocation();
  const toast = useToast();
  const goOn = useSuccessNavigation();
  const mutation = useMutation({
    mutationFn: accountCalls.resendConfirm,
    onSuccess: (reply, form) => {
      toast.resolve(CARD_ERROR_TITLES.resend);
      // Already on /confirm: the entry is updated rather than stacked.
      goOn(
        CONFIRM_ROUTE,
        {
          username: form.username,
          title: 'Confirmation Code Sent',
          description: replyMessage(reply, 'We sent you a new confirmation code.'),
        },
        location.pathname === CONFIRM_ROUTE,
      );
    },
    onError: (error) => {
      toast.error(CARD_ERROR_TITLES.resend, failureMessage(error));
    },
  });

  function resend(username: string): string[] {
    const errors = formErrors(resendConfirmSchema, { username }).username ?? [];
    if (errors.length > 0) {
      return errors;
    }
    const parsed = resendConfirmSchema.parse({ username });
    mutation.mutate(parsed);
    return [];
  }

  return { resend, pending: mutation.isPending };
}
