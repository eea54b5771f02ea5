import { describe, expect, it } from 'vitest';
import {
  addToast,
  closeToast,
  dropClosed,
  enterScreen,
  type QueuedToast,
  resolveError,
} from './toast-queue';

const confirmError = {
  id: 1,
  severity: 'error',
  title: 'Confirm Card Error',
  description: 'That confirmation code is not correct.',
  screen: '/confirm',
} as const;
const codeSent = {
  id: 2,
  severity: 'success',
  title: 'Confirmation Code Sent',
  screen: '/confirm',
} as const;

const openTitles = (queue: readonly QueuedToast[]) =>
  queue.filter((toast) => toast.open).map((toast) => toast.title);

describe('toast queue', () => {
  it('ends an error when its action succeeds, and only that error', () => {
    let queue = addToast([], confirmError);
    queue = addToast(queue, { ...confirmError, id: 3, title: 'Resend Confirmation Code Error' });
    queue = resolveError(queue, 'Confirm Card Error');
    expect(openTitles(queue)).toEqual(['Resend Confirmation Code Error']);
  });

  it('ends the errors of a screen the applicant leaves; success toasts keep their time', () => {
    let queue = addToast([], confirmError);
    queue = addToast(queue, { ...codeSent, id: 4, screen: '/login', title: 'Account Confirmed' });
    queue = enterScreen(queue, '/login');
    expect(openTitles(queue)).toEqual(['Account Confirmed']);
    expect(enterScreen(queue, '/about')).toBe(queue);
  });

  it('lets newer news take the place of a success toast still showing', () => {
    let queue = addToast([], codeSent);
    queue = addToast(queue, confirmError);
    expect(openTitles(queue)).toEqual(['Confirm Card Error']);
    queue = addToast(queue, { ...codeSent, id: 6 });
    expect(openTitles(queue)).toEqual(['Confirm Card Error', 'Confirmation Code Sent']);
  });

  it('replaces an earlier failure of the same action instead of stacking them', () => {
    let queue = addToast([], confirmError);
    queue = addToast(queue, { ...confirmError, id: 5, description: 'The code has expired.' });
    expect(queue.filter((toast) => toast.open)).toEqual([
      { ...confirmError, id: 5, description: 'The code has expired.', open: true },
    ]);
  });

  it('keeps closed toasts for their exit animation, then drops them', () => {
    let queue = addToast(addToast([], confirmError), codeSent);
    queue = closeToast(queue, 2);
    expect(queue).toHaveLength(2);
    expect(dropClosed(queue)).toEqual([{ ...confirmError, open: true }]);
    const settled = dropClosed(queue);
    expect(dropClosed(settled)).toBe(settled);
  });

  it('changes nothing when nothing matches, so React need not render', () => {
    const queue = addToast([], codeSent);
    expect(resolveError(queue, 'Confirm Card Error')).toBe(queue);
    expect(resolveError(queue, 'Confirmation Code Sent')).toBe(queue);
    expect(closeToast(queue, 99)).toBe(queue);
  });
});
