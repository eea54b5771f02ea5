import { type RefObject, useId, useMemo, useRef, useState } from 'react';
import { ADD_ANOTHER_MAX } from '../../shared/constants';
import type { KeyResolver } from '../../shared/form/conditions';
import type { Block, Item, Repeat, Switch, Tabs } from '../../shared/form/model';
import { branchesOf, enterBranch, type ResolvedInstance } from '../../shared/form/traverse';
import { Button } from '../ui/button';
import { cx } from '../ui/cx';
import { type HeldFocus, useHandOverFocus } from '../ui/focus-hand-over';
import { onDemand } from '../ui/on-demand';
import type { CourseworkGridProps } from './coursework-grid';
import { FieldView } from './field';
import styles from './form.module.css';
import { useFormContext } from './form-context';
import { useChosenTab, useCondition, useFirstCase, useRepeatCount } from './hooks';

// Radix Tabs and its roving focus serve signed-in applicants on one later page: they load when a
// tab group is first shown to someone signed in (or at idle after the first page is ready).
const signedInTabs = onDemand(() => import('./signed-in-tabs'));
export const preloadSignedInTabs = signedInTabs.preload;

// The coursework grid (its totals, exact fractions and paste handling) serves one later page.
const courseworkGrid = onDemand<CourseworkGridProps>(() =>
  import('./coursework-grid').then((module) => ({ default: module.CourseworkGridView })),
);
export const preloadCourseworkGrid = courseworkGrid.preload;

function CourseworkItem(props: CourseworkGridProps) {
  const Grid = courseworkGrid.useLoaded(true);
  return Grid ? <Grid {...props} /> : null;
}

export interface ItemListProps {
  items: readonly Item[];
  /** Joined to every key: the repeat instance's prefix, or ''. */
  prefix: string;
  instance: ResolvedInstance | null;
  resolveKey: KeyResolver;
  /** 0 for the page's own items: their titled blocks are the page's sections. */
  depth: number;
}

/** Renders items of the model recursively; each item subscribes only to what it reads. */
export function ItemList(props: ItemListProps) {
  const { items, ...place } = props;
  return (
    <>
      {items.map((item) => (
        <ItemView key={itemKey(item)} item={item} {...place} />
      ))}
    </>
  );
}

function itemKey(item: Item): string {
  return item.kind === 'field' ? `field:${item.key}` : `${item.kind}:${item.id}`;
}

type ItemViewProps = Omit<ItemListProps, 'items'> & { item: Item };

function ItemView({ item, ...place }: ItemViewProps) {
  switch (item.kind) {
    case 'field':
      return <FieldView field={item} place={place} />;
    case 'block':
      return <BlockView block={item} {...place} />;
    case 'repeat':
      return <RepeatView repeat={item} {...place} />;
    case 'tabs':
      return <TabsView tabs={item} {...place} />;
    case 'switch':
      return <SwitchView item={item} {...place} />;
    case 'coursework':
      return <CourseworkItem grid={item} place={place} />;
  }
}

function BlockView({ block, ...place }: Omit<ItemListProps, 'items'> & { block: Block }) {
  const shown = useCondition(block.showWhen, place.resolveKey);
  const headingId = useId();
  if (!shown) return null;
  const inner = { ...place, depth: place.depth + 1 };
  const grid = block.layout ? styles.grid : styles.stack;
  const description = block.description ? (
    <p className={styles.description}>{block.description}</p>
  ) : null;
  if (block.title && place.depth === 0) {
    return (
      <section aria-labelledby={headingId} className={styles.section}>
        <h2 id={headingId} className={styles.sectionTitle}>
          {block.title}
        </h2>
        {description}
        <div className={grid}>
          <ItemList items={block.items} {...inner} />
        </div>
      </section>
    );
  }
  if (block.title || block.description) {
    return (
      <fieldset className={cx(styles.group, styles.wide)}>
        <legend className={block.title ? styles.groupTitle : styles.groupQuestion}>
          {block.title ?? block.description}
        </legend>
        {block.title ? description : null}
        <div className={grid}>
          <ItemList items={block.items} {...inner} />
        </div>
      </fieldset>
    );
  }
  return (
    <div className={cx(grid, styles.wide)}>
      <ItemList items={block.items} {...inner} />
    </div>
  );
}

function RepeatView({ repeat, ...place }: Omit<ItemListProps, 'items'> & { repeat: Repeat }) {
  const shown = useCondition(repeat.showWhen, place.resolveKey);
  if (!shown) return null;
  return <ShownRepeat repeat={repeat} {...place} />;
}

function ShownRepeat({ repeat, ...place }: Omit<ItemListProps, 'items'> & { repeat: Repeat }) {
  const { isLoggedIn, actions } = useFormContext();
  const count = useRepeatCount(repeat);
  const [adding, setAdding] = useState(false);
  const headingId = useId();
  const container = useRef<HTMLDivElement>(null);
  const { prefix, instance, resolveKey } = place;
  // Each instance's place (prefix, instance, `$` resolver), worked out by the model's one walk.
  const instances = useMemo(
    () =>
      branchesOf(repeat).map((branch) =>
        enterBranch(branch, { page: null, prefix, instance, resolveKey, path: [] }),
      ),
    [repeat, prefix, instance, resolveKey],
  );
  const maximum = Math.min(repeat.instances.length, ADD_ANOTHER_MAX);

  async function addAnother() {
    setAdding(true);
    const added = await actions.addAnother(repeat);
    setAdding(false);
    if (!added) return;
    // The new instance's first question takes the focus, so keyboard users land where they added.
    requestAnimationFrame(() => {
      const last = container.current?.querySelector<HTMLElement>(
        `[data-instance="${count}"] :is(input, select, textarea)`,
      );
      last?.focus();
    });
  }

  return (
    <div ref={container} className={cx(styles.repeat, styles.wide)}>
      {repeat.title ? (
        <h3 id={headingId} className={styles.repeatTitle}>
          {repeat.title}
        </h3>
      ) : null}
      {instances.slice(0, count).map((inner, index) => (
        <fieldset key={inner.prefix} className={styles.instance} data-instance={index}>
          <legend className={styles.instanceTitle}>{inner.instance?.label}</legend>
          <div className={styles.grid}>
            <ItemList
              items={repeat.items}
              prefix={inner.prefix}
              instance={inner.instance}
              resolveKey={inner.resolveKey}
              depth={place.depth + 1}
            />
          </div>
        </fieldset>
      ))}
      {isLoggedIn && count < maximum ? (
        <Button
          type="button"
          variant="secondary"
          className={styles.addAnother}
          onClick={addAnother}
          disabled={adding}
        >
          Add Another<span className="visually-hidden"> {repeat.addLabel}</span>
        </Button>
      ) : null}
    </div>
  );
}

function TabsView({ tabs, ...place }: Omit<ItemListProps, 'items'> & { tabs: Tabs }) {
  const shown = useCondition(tabs.showWhen, place.resolveKey);
  if (!shown) return null;
  return <ShownTabs tabs={tabs} {...place} />;
}

function ShownTabs({ tabs, ...place }: Omit<ItemListProps, 'items'> & { tabs: Tabs }) {
  const { isLoggedIn } = useFormContext();
  const SignedInTabs = signedInTabs.useLoaded(isLoggedIn);
  // The tab list replaces the one-tab view, and with it the box an applicant may be typing in.
  const heldFocus = useRef<HeldFocus | null>(null);
  if (isLoggedIn && SignedInTabs) {
    return <SignedInTabs tabs={tabs} heldFocus={heldFocus} {...place} />;
  }
  return <OneTab tabs={tabs} isLoggedIn={isLoggedIn} heldFocus={heldFocus} {...place} />;
}

/**
 * Spec 001 section 4: anonymous visitors see the default tab only. Signed in, the chosen tab
 * shows this way for the moment the tab list's code takes to arrive.
 */
function OneTab({
  tabs,
  isLoggedIn,
  heldFocus,
  ...place
}: Omit<ItemListProps, 'items'> & {
  tabs: Tabs;
  isLoggedIn: boolean;
  heldFocus: RefObject<HeldFocus | null>;
}) {
  const chosen = useChosenTab(tabs);
  const headingId = useId();
  const view = useRef<HTMLDivElement>(null);
  useHandOverFocus(view, heldFocus);
  const shownId = isLoggedIn ? chosen : tabs.defaultTab;
  const tab = tabs.tabs.find((candidate) => candidate.id === shownId) ?? tabs.tabs[0];
  const others = tabs.tabs.filter((candidate) => candidate !== tab).map((other) => other.label);
  return (
    <div ref={view} className={cx(styles.tabs, styles.wide)}>
      <h3 id={headingId} className={styles.repeatTitle}>
        {tabs.label}
      </h3>
      {!isLoggedIn && others.length > 0 ? (
        <p className={styles.description}>
          Once you have created an account you can also choose: {others.join(', ')}.
        </p>
      ) : null}
      <div className={styles.stack}>
        {tab ? <ItemList items={tab.items} {...place} depth={place.depth + 1} /> : null}
      </div>
    </div>
  );
}

function SwitchView({ item, ...place }: Omit<ItemListProps, 'items'> & { item: Switch }) {
  const index = useFirstCase(item.cases, place.resolveKey);
  const branch = item.cases[index];
  return branch ? <ItemList items={branch.items} {...place} /> : null;
}
