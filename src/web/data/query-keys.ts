/** Cache keys shared by loaders, hooks and the code that invalidates them. */
export const queryKeys = {
  tenant: ['tenant'],
  profile: ['profile'],
  tabs: ['tabs'],
  addAnother: ['add-another'],
  documentAnswers: ['document-answers'],
  /** Every file question's conversion status, for filters that reach all of them. */
  documentConversions: ['document-conversion'],
  documentConversion: (answerKey: string) => ['document-conversion', answerKey] as const,
} as const;
