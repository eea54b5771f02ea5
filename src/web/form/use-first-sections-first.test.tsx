import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useFirstSectionsFirst } from './use-first-sections-first';

function Sections({ titles, whole = false }: { titles: readonly string[]; whole?: boolean }) {
  const drawn = useFirstSectionsFirst(titles, whole);
  return (
    <>
      {drawn.map((title) => (
        <section key={title}>{title}</section>
      ))}
    </>
  );
}

describe('useFirstSectionsFirst', () => {
  it('draws only the first sections in the first frame', () => {
    const titles = ['Your name', 'Date of birth and gender', 'Phone', 'Address', 'Citizenship'];
    const markup = renderToStaticMarkup(<Sections titles={titles} />);
    expect(markup).toBe('<section>Your name</section><section>Date of birth and gender</section>');
  });

  it('draws a page opened at one of its questions whole at once', () => {
    const titles = ['Your name', 'Date of birth and gender', 'Phone'];
    const markup = renderToStaticMarkup(<Sections titles={titles} whole />);
    expect(markup).toBe(
      '<section>Your name</section><section>Date of birth and gender</section><section>Phone</section>',
    );
  });

  it('draws a short page whole at once', () => {
    const markup = renderToStaticMarkup(<Sections titles={['Your name', 'Phone']} />);
    expect(markup).toBe('<section>Your name</section><section>Phone</section>');
  });
});
