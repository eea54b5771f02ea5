/** Cache keys shared by loaders, hooks and the code that invalidates them. */
export const queryKeys = {
  tenant: ['tenant'],
  profile: ['profile'],
  tabs: ['tabs'],
  addAnother: ['add-another'],
} as const;
