import type { ComponentPropsWithRef } from 'react';
import styles from './button.module.css';
import { cx } from './cx';

/**
 * How a button looks (button.module.css): the one main action of a screen or dialog, the actions
 * beside it, a button that reads as a link (footer actions that open dialogs), or the bare shape
 * for an action coloured by its caller (a destructive Delete).
 */
export type ButtonVariant = 'primary' | 'secondary' | 'link' | 'shape';

const VARIANT_CLASSES: Readonly<Record<ButtonVariant, ReadonlyArray<string | undefined>>> = {
  primary: [styles.button, styles.primary],
  secondary: [styles.button, styles.secondary],
  link: [styles.link],
  shape: [styles.button],
};

export interface ButtonProps extends Omit<ComponentPropsWithRef<'button'>, 'type'> {
  variant: ButtonVariant;
  /**
   * Required, because a `<button>` without one submits its form: each caller says which it
   * means, as the hand-styled buttons this replaced did.
   */
  type: 'button' | 'submit' | 'reset';
  /** As wide as its container (the account menu, a sign-in card). */
  fullWidth?: boolean;
}

/** The class names of a variant, for a link or label that must look like the button beside it. */
export function buttonClassName(variant: ButtonVariant, fullWidth = false): string {
  return cx(...VARIANT_CLASSES[variant], fullWidth && styles.full);
}

/** A native button in one of the UI kit's looks; `className` adds a screen's own layout to it. */
export function Button({ variant, fullWidth, className, type, ...native }: ButtonProps) {
  return (
    <button
      type={type}
      className={cx(buttonClassName(variant, fullWidth), className)}
      {...native}
    />
  );
}
