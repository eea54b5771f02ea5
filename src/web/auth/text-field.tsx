// Transitional: src/web/staff/list still imports the text field from here. It belongs to the UI
// kit (src/web/ui/text-field.tsx); this re-export goes when that folder's owner moves its imports.
export { TextField, type TextFieldProps } from '../ui/text-field';
