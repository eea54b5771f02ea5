import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { applicationUrls } from '../../../shared/staff/application-api';
import { Button } from '../../ui/button';
import styles from '../shell/console.module.css';
import { downloadFile } from '../shell/secrets';
import { FormAlert, serverMessage } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import {
  chosenColumnsText,
  csvExportHref,
  type ListQuery,
  toggledColumns,
} from './application-filters';
import { groupsOf } from './export-logic';
import list from './list.module.css';
import { listCalls, listKeys } from './list-calls';

export function CsvExport({ query }: { query: ListQuery }) {
  const stepUp = useStepUp();
  const columns = useQuery({ queryKey: listKeys.exportColumns, queryFn: listCalls.exportColumns });
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const choice = chosen ?? columns.data?.default ?? [];
  const keys = new Set(choice);
  const chooserId = useId();

  const download = useMutation({
    mutationFn: (picked: string[]) =>
      stepUp.run(() => listCalls.file(csvExportHref(applicationUrls.csvExport, query, picked))),
    onSuccess: ({ blob, fileName }) => {
      downloadFile(blob, fileName ?? 'applications.csv');
      setStatus('The CSV file is downloading.');
    },
    onError: (error) => {
      if (!(error instanceof StepUpCancelled)) setFailure(serverMessage(error));
    },
  });

  const toggle = (key: string, on: boolean) => {
    if (keys.has(key) === on) return;
    setChosen(toggledColumns(choice, key, on));
  };
  const labels = new Map((columns.data?.columns ?? []).map((column) => [column.key, column.label]));

  return (
    <div className={list.exportBox}>
      <h3 className={styles.subTitle}>CSV file</h3>
      <FormAlert message={failure} />
      <p role="status" className={styles.statusLine}>
        {status}
      </p>
      {columns.isPending ? (
        <p className={styles.muted}>Loading the columns...</p>
      ) : columns.isError ? (
        <FormAlert message={serverMessage(columns.error)} />
      ) : (
        <>
          <details className={list.columns}>
            <summary>
              Choose columns ({choice.length} of {columns.data.columns.length} chosen, at most{' '}
              {columns.data.max})
            </summary>
            <div className={list.inlineButtons}>
              {columns.data.columns.length <= columns.data.max ? (
                <Button
                  type="button"
                  variant="secondary"
                  className={styles.smallButton}
                  onClick={() => setChosen(columns.data.columns.map((column) => column.key))}
                >
                  Choose all
                </Button>
              ) : null}
              <Button
                type="button"
                variant="secondary"
                className={styles.smallButton}
                onClick={() => setChosen([])}
              >
                Choose none
              </Button>
              <Button
                type="button"
                variant="secondary"
                className={styles.smallButton}
                onClick={() => setChosen(null)}
              >
                Back to the usual columns
              </Button>
            </div>
            <p className={styles.muted}>
              The file’s columns, in the order chosen:{' '}
              {chosenColumnsText(choice.map((key) => labels.get(key) ?? key))}
            </p>
            <div id={chooserId} className={list.columnGroups}>
              {groupsOf(columns.data.columns).map(([group, items]) => (
                <fieldset key={group} className={list.fieldset}>
                  <legend className={list.legend}>{group}</legend>
                  <div className={list.columnChecks}>
                    {items.map((column) => (
                      <label key={column.key} className={list.check}>
                        <input
                          type="checkbox"
                          checked={keys.has(column.key)}
                          onChange={(event) => toggle(column.key, event.target.checked)}
                        />
                        {column.label}
                      </label>
                    ))}
                  </div>
                </fieldset>
              ))}
            </div>
          </details>
          <div className={styles.formActions}>
            <Button
              type="button"
              variant="primary"
              disabled={download.isPending}
              onClick={() => {
                setStatus('');
                if (choice.length === 0 || choice.length > columns.data.max) {
                  setFailure(
                    choice.length === 0
                      ? 'Choose at least one column.'
                      : `Choose at most ${columns.data.max} columns.`,
                  );
                  return;
                }
                setFailure(null);
                download.mutate(choice);
              }}
            >
              {download.isPending ? 'Preparing the CSV...' : 'Download CSV'}
            </Button>
          </div>
        </>
      )}
    </div>
  );
}
