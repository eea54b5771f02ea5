import { useSuspenseQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo } from 'react';
import { useLocation } from 'react-router';
import { serviceDocumentPdfUrl, servicePdfUrl } from '../../shared/api/service';
import { applicationModel } from '../../shared/application/application-model';
import {
  type PrintableApplication,
  type PrintableEntry,
  type PrintableRow,
  type PrintableValue,
  printableApplication,
} from '../../shared/form/printable';
import { useTenantConfig } from '../data/tenant';
import styles from './read-only.module.css';
import { readOnlyQueryOptions } from './read-only-data';

const RADIO_SELECTED_MARK = '(X)';
const RADIO_UNSELECTED_MARK = '( )';

/** Headings go one level deeper per nesting, and HTML has six. */
type HeadingLevel = 2 | 3 | 4 | 5 | 6;
const deeper = (level: HeadingLevel): HeadingLevel => Math.min(level + 1, 6) as HeadingLevel;

function Heading({
  level,
  className,
  children,
}: {
  level: HeadingLevel;
  className?: string;
  children: string;
}) {
  const Tag = `h${level}` as const;
  return <Tag className={className}>{children}</Tag>;
}

/**
 * The service user's print-style view of one application (spec 001 section 6): every page of the
 * model one after another, built by the same projection as the application PDF, so both show the
 * same groups, rows and marks.
 */
export default function ReadOnlyView({ token }: { token: string }) {
  const { data } = useSuspenseQuery(readOnlyQueryOptions(token));
  const tenant = useTenantConfig();
  const { pathname } = useLocation();

  const application = useMemo(
    () =>
      data.ok
        ? printableApplication(applicationModel, {
            answers: data.view.answer,
            addAnother: data.view.add_another,
            tabs: data.view.tabs,
            documents: data.view.document_answer,
          })
        : null,
    [data],
  );
  const answers = data.ok ? data.view.answer : {};
  const applicant = [answers.first_name, answers.last_name]
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .join(' ');
  const title = applicant ? `Application of ${applicant}` : 'Transfer application';

  useEffect(() => {
    document.title = `${data.ok ? title : 'Staff link'} (read-only) | ${tenant.partner_name}`;
  }, [data.ok, title, tenant.partner_name]);

  // A link to a later page of the form lands on that page's section.
  useEffect(() => {
    const page = applicationModel.pages.find((candidate) => candidate.route === pathname);
    if (page && page !== applicationModel.pages[0])
      document.getElementById(`page-${page.id}`)?.scrollIntoView();
  }, [pathname]);

  if (!application) {
    return (
      <div className={styles.document}>
        <h1 className={styles.title}>This link cannot be opened</h1>
        <p className={styles.refused}>{data.ok ? '' : data.message}</p>
      </div>
    );
  }

  return (
    <ApplicationDocument
      application={application}
      title={title}
      partnerName={tenant.partner_name}
      token={token}
    />
  );
}

/** The printable application as a document: pages, their answered groups, rows and marks. */
export function ApplicationDocument({
  application,
  title,
  partnerName,
  token,
}: {
  application: PrintableApplication;
  title: string;
  partnerName: string;
  token: string;
}) {
  return (
    <article className={styles.document} aria-labelledby="read-only-title">
      <header className={styles.heading}>
        <p className={styles.partner}>{partnerName} · Transfer Application</p>
        <h1 id="read-only-title" className={styles.title}>
          {title}
        </h1>
        <p className={styles.note}>Read-only view of the applicant’s answers.</p>
        <p className={styles.download}>
          <a href={servicePdfUrl(token)} download>
            Download the application as one PDF
          </a>{' '}
          (answers and attached documents)
        </p>
      </header>
      {application.pages.map((page) => (
        <section
          key={page.id}
          id={`page-${page.id}`}
          aria-labelledby={`page-${page.id}-title`}
          className={styles.page}
        >
          <h2 id={`page-${page.id}-title`} className={styles.pageTitle}>
            {page.title}
          </h2>
          {page.groups.length === 0 ? (
            <p className={styles.nothing}>No answers on this page.</p>
          ) : (
            page.groups.map((group) => (
              <section key={group.id} className={styles.group}>
                {group.title ? (
                  <Heading level={3} className={styles.groupTitle}>
                    {group.title}
                  </Heading>
                ) : null}
                <Entries entries={group.entries} level={4} token={token} />
              </section>
            ))
          )}
        </section>
      ))}
    </article>
  );
}

function Entries({
  entries,
  level,
  token,
}: {
  entries: readonly PrintableEntry[];
  level: HeadingLevel;
  token: string;
}) {
  const parts: ReactNode[] = [];
  let rows: PrintableRow[] = [];
  // Consecutive rows share one description list; nested blocks break it.
  const flush = () => {
    if (rows.length === 0) return;
    parts.push(
      <dl key={`rows-${rows[0]?.key}`} className={styles.rows}>
        {rows.map((row) => (
          <Row key={row.key} row={row} token={token} />
        ))}
      </dl>,
    );
    rows = [];
  };
  for (const entry of entries) {
    if (entry.kind === 'row') {
      rows.push(entry);
      continue;
    }
    flush();
    parts.push(
      <Nested key={`${entry.kind}-${entry.id}`} entry={entry} level={level} token={token} />,
    );
  }
  flush();
  return <>{parts}</>;
}

function Nested({
  entry,
  level,
  token,
}: {
  entry: Exclude<PrintableEntry, PrintableRow>;
  level: HeadingLevel;
  token: string;
}) {
  switch (entry.kind) {
    case 'block':
      return (
        <div className={styles.block}>
          {entry.title ? (
            <Heading level={level} className={styles.blockTitle}>
              {entry.title}
            </Heading>
          ) : entry.description ? (
            <p className={styles.question}>{entry.description}</p>
          ) : null}
          <Entries entries={entry.entries} level={deeper(level)} token={token} />
        </div>
      );
    case 'repeat':
      return (
        <div className={styles.block}>
          {entry.title ? (
            <Heading level={level} className={styles.blockTitle}>
              {entry.title}
            </Heading>
          ) : null}
          {entry.instances.map((instance) => (
            <div key={instance.prefix} className={styles.instance}>
              <Heading level={deeper(level)} className={styles.instanceTitle}>
                {instance.label}
              </Heading>
              <Entries entries={instance.entries} level={deeper(deeper(level))} token={token} />
            </div>
          ))}
        </div>
      );
    case 'tabs':
      return (
        <div className={styles.block}>
          <p className={styles.question}>
            {entry.label}: <strong>{entry.chosen.label}</strong>
          </p>
          <Entries entries={entry.entries} level={level} token={token} />
        </div>
      );
  }
}

function Row({ row, token }: { row: PrintableRow; token: string }) {
  const checkbox = row.value.kind === 'checkbox';
  return (
    <div className={checkbox ? styles.checkRow : styles.row} data-key={row.key}>
      <dt className={styles.label}>{row.label}</dt>
      <dd className={styles.value}>
        <Value value={row.value} token={token} />
      </dd>
    </div>
  );
}

const notAnswered = (
  <>
    <span aria-hidden="true">—</span>
    <span className="visually-hidden">Not answered</span>
  </>
);

function Value({ value, token }: { value: PrintableValue; token: string }) {
  switch (value.kind) {
    case 'checkbox':
      return (
        <>
          <span className={styles.mark} aria-hidden="true">
            {value.mark}
          </span>
          <span className="visually-hidden">{value.checked ? 'Checked' : 'Not checked'}</span>
        </>
      );
    case 'choice':
      if (value.options && value.options.length > 0) {
        return (
          <ul className={styles.options}>
            {value.options.map((option) => (
              <li key={option.value} className={option.selected ? styles.selected : undefined}>
                <span className={styles.mark} aria-hidden="true">
                  {option.selected ? RADIO_SELECTED_MARK : RADIO_UNSELECTED_MARK}
                </span>{' '}
                {option.label}
                {option.selected ? <span className="visually-hidden"> (selected)</span> : null}
              </li>
            ))}
          </ul>
        );
      }
      return value.label ? <span className={styles.text}>{value.label}</span> : notAnswered;
    case 'document':
      if (!value.attached) return notAnswered;
      return (
        <>
          <a
            href={serviceDocumentPdfUrl(value.answerKey, token)}
            download
            className={styles.documentLink}
          >
            {value.text}
          </a>
          {value.fileName ? <span className={styles.fileName}> ({value.fileName})</span> : null}
        </>
      );
    default:
      return value.text ? <span className={styles.text}>{value.text}</span> : notAnswered;
  }
}
