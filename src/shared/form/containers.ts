import type { FormModel, Repeat, Tabs } from './model';
import { walkModel } from './traverse';

/** The add-another blocks and tab groups of a model, by id: the ids the server accepts. */
export function containersOf(model: FormModel): {
  repeats: Map<string, Repeat>;
  tabs: Map<string, Tabs>;
} {
  const repeats = new Map<string, Repeat>();
  const tabs = new Map<string, Tabs>();
  walkModel(
    model,
    {
      item(item) {
        if (item.kind === 'repeat') repeats.set(item.id, item);
        if (item.kind === 'tabs') tabs.set(item.id, item);
      },
    },
    null,
  );
  return { repeats, tabs };
}
