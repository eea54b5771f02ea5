import type { Field, FormModel, Item, Page } from '../../src/shared/form/model';

/** The field the benchmark types into. */
export const TYPED_KEY = 'b0_text';
/** Fields whose condition reads the typed key (they subscribe to it; their outcome never flips). */
export const DEPENDENT_COUNT = 5;

const choices = [
  { value: '', label: '--' },
  { value: 'A', label: 'Choice A' },
  { value: 'B', label: 'Choice B' },
];

/**
 * A page of `blocks` x 5 fields built with the engine's model types: text, text area, select,
 * radio and checkbox in each block; a few text fields depend on the typed field.
 */
export function benchModel(blocks = 30): FormModel {
  const items: Item[] = [];
  for (let index = 0; index < blocks; index++) {
    const dependent = index > 0 && index <= DEPENDENT_COUNT;
    const fields: Field[] = [
      {
        kind: 'field',
        key: `b${index}_text`,
        widget: 'text',
        label: `Text ${index}`,
        help: 'Help text tied to the input.',
        ...(dependent
          ? { showWhen: { valueKey: TYPED_KEY, operator: 'notEquals', target: 'never typed' } }
          : {}),
        rules: [{ type: 'required', message: 'Required.' }],
      },
      { kind: 'field', key: `b${index}_notes`, widget: 'textarea', label: `Notes ${index}` },
      {
        kind: 'field',
        key: `b${index}_choice`,
        widget: 'select',
        label: `Choice ${index}`,
        options: choices,
      },
      {
        kind: 'field',
        key: `b${index}_yes`,
        widget: 'radio',
        label: `Yes or no ${index}`,
        options: choices.slice(1),
      },
      { kind: 'field', key: `b${index}_flag`, widget: 'checkbox', label: `Flag ${index}` },
    ];
    items.push({ kind: 'block', id: `block_${index}`, title: `Block ${index}`, items: fields });
  }
  const page: Page = { id: 'bench', route: '/about', title: 'Benchmark', items };
  return { pages: [page] };
}
