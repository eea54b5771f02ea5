import type { Field, FormModel } from '../form/model';

const yesNo = [
  { value: '', label: '--' },
  { value: 'Y', label: 'Yes' },
  { value: 'N', label: 'No' },
];

/** A small model with every kind of item, for the engine's tests. */
export const fixtureModel: FormModel = {
  pages: [
    {
      id: 'about',
      route: '/about',
      title: 'About You',
      items: [
        {
          kind: 'block',
          id: 'name',
          title: 'Your name',
          items: [
            {
              kind: 'field',
              key: 'first_name',
              widget: 'text',
              label: 'First name',
              rules: [{ type: 'required', message: 'First name is required.' }],
            },
            {
              kind: 'field',
              key: 'birth_date',
              widget: 'date',
              label: 'Date of birth',
              rules: [
                { type: 'required', message: 'A valid date of birth is required.' },
                { type: 'date', message: 'A valid date of birth is required.' },
                {
                  type: 'minAgeYears',
                  years: 13,
                  message: 'You must be 13 years or older to apply.',
                },
                {
                  type: 'notBeforeYearsAgo',
                  years: 100,
                  message:
                    'This date is not supported. Please contact help support for assistance.',
                },
              ],
            },
            {
              kind: 'field',
              key: 'military',
              widget: 'select',
              label: 'Military service',
              options: yesNo,
            },
            { kind: 'field', key: 'optin_sms_ind', widget: 'checkbox', label: 'Text me updates' },
            {
              kind: 'field',
              key: 'phone_mobile',
              widget: 'phone',
              label: 'Cell phone',
              rules: [
                {
                  type: 'required',
                  message: 'A cell phone is required for texts.',
                  when: { valueKey: 'optin_sms_ind', operator: 'answered' },
                },
              ],
            },
          ],
        },
        {
          kind: 'repeat',
          id: 'branches',
          title: 'Military branches',
          addLabel: 'branch',
          showWhen: { valueKey: 'military', operator: 'equals', target: 'Y' },
          instances: [
            { prefix: 'branch_', label: 'Branch 1' },
            { prefix: 'branch_2_', label: 'Branch 2' },
            { prefix: 'branch_3_', label: 'Branch 3' },
          ],
          items: [
            {
              kind: 'field',
              key: 'name',
              widget: 'text',
              label: 'Branch',
              rules: [{ type: 'required', message: '{instance}: name the branch.' }],
            },
            {
              kind: 'field',
              key: 'start_year',
              widget: 'year',
              label: 'Start year',
              // Wider than the rule's range, so the rule's own messages can be seen.
              years: { start: 2030, count: 80, direction: 'past' },
              showWhen: { valueKey: '$name', operator: 'answered' },
              rules: [
                {
                  type: 'yearRange',
                  minYearsAgo: 74,
                  maxYearsAhead: 0,
                  minMessage: 'The minimum supported year is {year}',
                  maxMessage: 'The maximum supported year is {year}',
                },
              ],
            },
          ],
        },
      ],
    },
    {
      id: 'education',
      route: '/education',
      title: 'Your Academics',
      items: [
        {
          kind: 'field',
          key: 'major',
          widget: 'radio',
          label: 'Major',
          options: [
            { value: '6', label: 'Nursing' },
            { value: '338', label: 'Film' },
            { value: '1', label: 'History' },
          ],
          optionContent: {
            '6': [
              {
                kind: 'field',
                key: 'study_location',
                widget: 'text',
                label: 'Study location',
                rules: [{ type: 'required', message: 'Choose a location.' }],
              },
            ],
          },
        },
        {
          kind: 'switch',
          id: 'statement',
          cases: [
            {
              when: { valueKey: 'major', operator: 'in', target: ['338'] },
              items: [
                {
                  kind: 'field',
                  key: 'essay',
                  widget: 'textarea',
                  label: 'Essay',
                  characterLimit: 7000,
                },
                { kind: 'field', key: 'portfolio', widget: 'text', label: 'Portfolio link' },
              ],
            },
            {
              when: { valueKey: 'major', operator: 'answered' },
              items: [{ kind: 'field', key: 'essay', widget: 'textarea', label: 'Essay' }],
            },
          ],
        },
        {
          kind: 'tabs',
          id: 'statement_tabs',
          label: 'Personal statement',
          defaultTab: 'write',
          tabs: [
            {
              id: 'write',
              label: 'Write it here',
              items: [
                { kind: 'field', key: 'statement_text', widget: 'textarea', label: 'Statement' },
              ],
            },
            {
              id: 'upload',
              label: 'Upload from your device',
              items: [
                {
                  kind: 'field',
                  key: 'statement_doc',
                  widget: 'file',
                  label: 'Statement document',
                },
              ],
            },
          ],
        },
        {
          kind: 'field',
          key: 'agree',
          widget: 'confirmCheckbox',
          label: 'I agree',
          reveals: [
            {
              kind: 'field',
              key: 'signature',
              widget: 'text',
              label: 'Signature',
              rules: [{ type: 'required', message: 'Sign here.' }],
            },
          ],
        },
        {
          kind: 'field',
          key: 'credits',
          widget: 'text',
          label: 'Credits',
          rules: [{ type: 'digits', message: 'Digits only.' }],
        },
      ],
    },
  ],
};

/** A country select and the region dropdown whose options follow it. */
export const countryField: Field = {
  kind: 'field',
  key: 'country',
  widget: 'select',
  label: 'Country',
  options: [
    { value: '', label: '--' },
    { value: 'USA', label: 'United States' },
    { value: 'CAN', label: 'Canada' },
  ],
};

export const regionField: Field = {
  kind: 'field',
  key: 'region',
  widget: 'conditionalSelect',
  label: 'Region',
  optionsFrom: {
    controllerKey: 'country',
    options: {
      USA: [
        { value: '', label: '--' },
        { value: 'FL', label: 'Florida' },
      ],
      CAN: [
        { value: '', label: '--' },
        { value: 'ON', label: 'Ontario' },
      ],
    },
  },
};
