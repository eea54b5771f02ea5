import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Button, buttonClassName } from './button';
import styles from './button.module.css';

describe('Button', () => {
  it('renders a native button with the type it is given and its variant’s classes', () => {
    const submit = renderToStaticMarkup(
      <Button type="submit" variant="primary" className="screen-layout">
        Save and Continue
      </Button>,
    );
    expect(submit).toBe(
      `<button type="submit" class="${styles.button} ${styles.primary} screen-layout">Save and Continue</button>`,
    );
  });

  it('passes native attributes through, so the accessible name and state stay the caller’s', () => {
    const markup = renderToStaticMarkup(
      <Button type="button" variant="secondary" aria-label="Copy the link" disabled>
        Copy
      </Button>,
    );
    expect(markup).toContain('aria-label="Copy the link"');
    expect(markup).toContain('disabled=""');
  });

  it('reads a link variant without the button’s shape, and a full-width one with it', () => {
    expect(buttonClassName('link')).toBe(styles.link);
    expect(buttonClassName('secondary', true)).toBe(
      `${styles.button} ${styles.secondary} ${styles.full}`,
    );
    expect(buttonClassName('shape')).toBe(styles.button);
  });
});
