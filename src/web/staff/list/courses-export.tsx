import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { applicationUrls } from '../../../shared/staff/application-api';
import { Button } from '../../ui/button';
import styles from '../shell/console.module.css';
import { downloadFile } from '../shell/secrets';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import { coursesExportHref, type ListQuery } from './application-filters';
import list from './list.module.css';
import { listCalls } from './list-calls';

/**
 * The list's coursework one course a line: each application's colleges, terms and courses as
 * they stand now, with the repeats the GPA leaves out marked.
 */
export function CoursesExport({ query }: { query: ListQuery }) {
  const stepUp = useStepUp();
  const [failure, setFailure] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  const download = useMutation({
    mutationFn: () =>
      stepUp.run(() => listCalls.file(coursesExportHref(applicationUrls.coursesExport, query))),
    onSuccess: ({ blob, fileName }) => {
      downloadFile(blob, fileName ?? 'courses.csv');
      setStatus('The CSV file of courses is downloading.');
    },
    onError: (error) => {
      if (!(error instanceof StepUpCancelled)) setFailure(serverMessage(error));
    },
  });

  return (
    <div className={list.exportBox}>
      <h3 className={styles.subTitle}>Courses (CSV file)</h3>
      <FormAlert message={failure} />
      <p role="status" className={styles.statusLine}>
        {status}
      </p>
      <p className={styles.muted}>
        One line per course: the application id, the college’s CEEB code and name, the term, the
        course as entered, and whether it is a repeat the transfer GPA leaves out.
      </p>
      <div className={styles.formActions}>
        <Button
          type="button"
          variant="primary"
          disabled={download.isPending}
          onClick={() => {
            setStatus('');
            setFailure(null);
            download.mutate();
          }}
        >
          {download.isPending ? 'Preparing the CSV...' : 'Download courses CSV'}
        </Button>
      </div>
    </div>
  );
}
