// Transitional: src/web/staff/list still imports the error helpers from here. They belong to the
// UI kit (src/web/ui/form-state.ts); this re-export goes when that folder's owner moves its imports.
export { uniqueMessages } from '../ui/form-state';
