import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
  type WebhookEventType,
} from '../../../shared/integration/api-scopes';
import {
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_URL_MAX_LENGTH,
  type WebhookCreatedView,
} from '../../../shared/integration/webhooks-api';
import { Button } from '../../ui/button';
import { FieldErrors, TextField } from '../../ui/text-field';
import styles from '../shell/console.module.css';
import { CopyButton } from '../shell/copy-button';
import { FormAlert, FormErrorSummary, useStaffForm } from '../shell/staff-form';
import { StepUpCancelled, useStepUp } from '../shell/step-up';
import local from './webhooks.module.css';
import { webhooksCalls, webhooksKeys } from './webhooks-calls';

type AddValues = { url: string; description: string };

const FIELDS = {
  url: { id: 'webhook-url', label: 'Receiver URL' },
  description: { id: 'webhook-description', label: 'Description' },
} as const;
const EVENTS_ID = 'webhook-events';
const EVENTS_MESSAGE = 'Choose at least one event.';

const addForm = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'Enter the address events are sent to.')
    .max(WEBHOOK_URL_MAX_LENGTH, `Use at most ${WEBHOOK_URL_MAX_LENGTH} characters.`)
    .regex(/^https?:\/\/\S+$/i, 'Enter an address starting with https://.'),
  description: z.string().trim().max(WEBHOOK_DESCRIPTION_MAX_LENGTH),
});

/** The add form, then the new subscription's signing secret, shown this once. */
export function AddSubscription({ onAdded }: { onAdded: (url: string) => void }) {
  const [created, setCreated] = useState<WebhookCreatedView | null>(null);
  const [round, setRound] = useState(0);
  // The form that had the focus is replaced: the focus goes to the secret, to be read and kept.
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (created) notice.current?.focus();
  }, [created]);
  return (
    <section className={styles.section} aria-labelledby="add-webhook-title">
      <h2 id="add-webhook-title" className={styles.sectionTitle}>
        Add a subscription
      </h2>
      {created ? (
        <div ref={notice} tabIndex={-1} className={styles.notice}>
          <p className={local.wrap}>
            Events now go to {created.url}. This is the signing secret: copy it to the receiver now,
            it is not shown again.
          </p>
          <p>
            <code className={styles.secret} data-testid="webhook-secret">
              {created.secret}
            </code>
          </p>
          <CopyButton text={created.secret} label="Copy signing secret" />
        </div>
      ) : null}
      <AddForm
        key={round}
        onStart={() => setCreated(null)}
        onAdded={(reply) => {
          setCreated(reply);
          setRound((count) => count + 1);
          onAdded(reply.url);
        }}
      />
    </section>
  );
}

function AddForm({
  onStart,
  onAdded,
}: {
  onStart: () => void;
  onAdded: (reply: WebhookCreatedView) => void;
}) {
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  const form = useStaffForm<AddValues>(addForm, { url: '', description: '' }, FIELDS);
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [eventsTried, setEventsTried] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const summary = useRef<HTMLDivElement>(null);
  const [focusSummary, setFocusSummary] = useState(0);
  useEffect(() => {
    if (focusSummary > 0) summary.current?.querySelector('section')?.focus();
  }, [focusSummary]);

  const eventsError = eventsTried && events.length === 0 ? EVENTS_MESSAGE : null;
  const entries = [
    ...form.summary,
    ...(eventsError && (form.submitAttempted || eventsTried)
      ? [{ id: `${EVENTS_ID}-${WEBHOOK_EVENT_TYPES[0]}`, label: 'Events', message: eventsError }]
      : []),
  ];

  const create = useMutation({
    mutationFn: (values: AddValues) =>
      stepUp.run(() =>
        webhooksCalls.create({
          url: values.url.trim(),
          events,
          ...(values.description.trim() ? { description: values.description.trim() } : {}),
        }),
      ),
    onSuccess: async (reply) => {
      await queryClient.invalidateQueries({ queryKey: webhooksKeys.subscriptions });
      onAdded(reply);
    },
    onError: (error) => {
      if (!(error instanceof StepUpCancelled)) setFailure(form.showServerError(error));
    },
  });

  return (
    <>
      <div ref={summary}>
        <FormErrorSummary entries={entries} ref={form.summaryRef} />
      </div>
      <FormAlert message={failure} />
      <form
        noValidate
        aria-labelledby="add-webhook-title"
        onSubmit={(event) => {
          setEventsTried(true);
          form.submit((data) => {
            if (events.length === 0) {
              setFocusSummary((count) => count + 1);
              return;
            }
            setFailure(null);
            onStart();
            create.mutate(data);
          })(event);
        }}
      >
        <div className={styles.formRow}>
          <TextField
            id={FIELDS.url.id}
            label={FIELDS.url.label}
            hint="Where each event is sent as a signed POST. Use https://."
            type="url"
            inputMode="url"
            autoComplete="off"
            markRequired
            maxLength={WEBHOOK_URL_MAX_LENGTH}
            binding={form.field('url')}
          />
          <TextField
            id={FIELDS.description.id}
            label={FIELDS.description.label}
            hint="What the subscription is for, for whoever reads this list later."
            autoComplete="off"
            maxLength={WEBHOOK_DESCRIPTION_MAX_LENGTH}
            binding={form.field('description')}
          />
        </div>
        <fieldset className={local.events}>
          <legend className={local.legend}>Events</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className={styles.checkbox}>
              <input
                id={`${EVENTS_ID}-${type}`}
                type="checkbox"
                checked={events.includes(type)}
                aria-invalid={eventsError ? true : undefined}
                aria-describedby={`${EVENTS_ID}-error`}
                onChange={(event) =>
                  setEvents((chosen) =>
                    event.target.checked
                      ? WEBHOOK_EVENT_TYPES.filter((t) => t === type || chosen.includes(t))
                      : chosen.filter((t) => t !== type),
                  )
                }
              />
              <span>
                <code>{type}</code>
                <span className={local.eventHint}>
                  {WEBHOOK_EVENTS[type].description} Needs {WEBHOOK_EVENTS[type].scope}.
                </span>
              </span>
            </label>
          ))}
          <FieldErrors id={`${EVENTS_ID}-error`} errors={eventsError ? [eventsError] : []} />
        </fieldset>
        <div className={styles.formActions}>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {create.isPending ? 'Adding...' : 'Add subscription'}
          </Button>
        </div>
      </form>
    </>
  );
}
