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
import {
  CourseworkRow,
  CourseworkTotalsSection,
  hasCoursework,
  isCourseworkRow,
} from './read-only-coursework';
import { readOnlyQueryOptions } from './read-only-data';

const RADIO_SELECTED_MARK = '(X)';
const RADIO_UNSELECTED_MARK = '( )';

/** Headings go one level deeper per nesting, and HTML has six. */
type HeadingLevel = 2 | 3 | 4 | 5 | 6;
const deeper = (level: HeadingLevel): HeadingLevel => Math.min(level + 1, 6) as HeadingLevel;

/**
 * Where the document's files are: the staff link reaches them through its token, the console
 * through the member's session. With `download`, each document offers viewing and saving apart.
 */
export interface DocumentLinks {
  /** The whole application as one PDF; left out where the page offers it itself. */
  pdf?: string;
  document: (answerKey: string) => string;
  download?: (answerKey: string) => string;
}

/** The links of a staff link: every file through its token, each document saved as it opens. */
export function serviceLinks(token: string): DocumentLinks {
  return {
    pdf: servicePdfUrl(token),
    document: (answerKey) => serviceDocumentPdfUrl(answerKey, token),
  };
}

function Heading({
  level,
  id,
  className,
  children,
}: {
  level: HeadingLevel;
  id?: string;
  className?: string;
  children: string;
}) {
  const Tag = `h${level}` as const;
  return (
    <Tag id={id} className={className}>
      {children}
    </Tag>
  );
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
            courseworkRules: tenant.coursework,
          })
        : null,
    [data, tenant.coursework],
  );
  const links = useMemo(() => serviceLinks(token), [token]);
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
      links={links}
    />
  );
}

/** The printable application as a document: pages, their answered groups, rows and marks. */
export function ApplicationDocument({
  application,
  title,
  partnerName,
  links,
  titleLevel = 1,
  className,
}: {
  application: PrintableApplication;
  title: string;
  partnerName: string;
  links: DocumentLinks;
  /** 2 where the document sits under a page's own heading (the console). */
  titleLevel?: 1 | 2;
  className?: string;
}) {
  const TitleTag = `h${titleLevel}` as const;
  const pageLevel = deeper(titleLevel as HeadingLevel);
  const groupLevel = deeper(pageLevel);
  return (
    <article
      className={className ? `${styles.document} ${className}` : styles.document}
      aria-labelledby="read-only-title"
    >
      <header className={styles.heading}>
        <p className={styles.partner}>{partnerName} · Transfer Application</p>
        <TitleTag id="read-only-title" className={styles.title}>
          {title}
        </TitleTag>
        <p className={styles.note}>Read-only view of the applicant’s answers.</p>
        {links.pdf ? (
          <p className={styles.download}>
            <a href={links.pdf} download>
              Download the application as one PDF
            </a>{' '}
            (answers and attached documents)
          </p>
        ) : null}
      </header>
      {application.pages.map((page) => (
        <section
          key={page.id}
          id={`page-${page.id}`}
          aria-labelledby={`page-${page.id}-title`}
          className={styles.page}
        >
          <Heading level={pageLevel} id={`page-${page.id}-title`} className={styles.pageTitle}>
            {page.title}
          </Heading>
          {page.groups.length === 0 ? (
            <p className={styles.nothing}>No answers on this page.</p>
          ) : (
            page.groups.map((group) => (
              <section key={group.id} className={styles.group}>
                {group.title ? (
                  <Heading level={groupLevel} className={styles.groupTitle}>
                    {group.title}
                  </Heading>
                ) : null}
                <Entries entries={group.entries} level={deeper(groupLevel)} links={links} />
              </section>
            ))
          )}
          {application.coursework && hasCoursework(page) ? (
            <CourseworkTotalsSection totals={application.coursework} level={groupLevel} />
          ) : null}
        </section>
      ))}
    </article>
  );
}

function Entries({
  entries,
  level,
  links,
}: {
  entries: readonly PrintableEntry[];
  level: HeadingLevel;
  links: DocumentLinks;
}) {
  const parts: ReactNode[] = [];
  let rows: PrintableRow[] = [];
  // Consecutive rows share one description list; nested blocks break it.
  const flush = () => {
    if (rows.length === 0) return;
    parts.push(
      <dl key={`rows-${rows[0]?.key}`} className={styles.rows}>
        {rows.map((row) => (
          <Row key={row.key} row={row} links={links} />
        ))}
      </dl>,
    );
    rows = [];
  };
  for (const entry of entries) {
    if (isCourseworkRow(entry)) {
      flush();
      parts.push(<CourseworkRow key={`coursework-${entry.key}`} row={entry} />);
      continue;
    }
    if (entry.kind === 'row') {
      rows.push(entry);
      continue;
    }
    flush();
    parts.push(
      <Nested key={`${entry.kind}-${entry.id}`} entry={entry} level={level} links={links} />,
    );
  }
  flush();
  return <>{parts}</>;
}

function Nested({
  entry,
  level,
  links,
}: {
  entry: Exclude<PrintableEntry, PrintableRow>;
  level: HeadingLevel;
  links: DocumentLinks;
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
          <Entries entries={entry.entries} level={deeper(level)} links={links} />
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
              <Entries entries={instance.entries} level={deeper(deeper(level))} links={links} />
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
          <Entries entries={entry.entries} level={level} links={links} />
        </div>
      );
  }
}

function Row({ row, links }: { row: PrintableRow; links: DocumentLinks }) {
  const checkbox = row.value.kind === 'checkbox';
  return (
    <div className={checkbox ? styles.checkRow : styles.row} data-key={row.key}>
      <dt className={styles.label}>{row.label}</dt>
      <dd className={styles.value}>
        <Value value={row.value} label={row.label} links={links} />
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

function Value({
  value,
  label,
  links,
}: {
  value: PrintableValue;
  label: string;
  links: DocumentLinks;
}) {
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
          {links.download ? (
            <span className={styles.documentLinks}>
              <a
                href={links.document(value.answerKey)}
                target="_blank"
                rel="noopener"
                className={styles.documentLink}
              >
                View<span className="visually-hidden"> {label}, in a new tab</span>
              </a>
              <a href={links.download(value.answerKey)} download>
                Download<span className="visually-hidden"> {label}</span>
              </a>
            </span>
          ) : (
            <a href={links.document(value.answerKey)} download className={styles.documentLink}>
              {value.text}
            </a>
          )}
          {value.fileName ? <span className={styles.fileName}> ({value.fileName})</span> : null}
        </>
      );
    default:
      return value.text ? <span className={styles.text}>{value.text}</span> : notAnswered;
  }
}
