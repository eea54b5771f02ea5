import type { FormModel, Item, Repeat, Tabs } from './model';

/** The add-another blocks and tab groups of a model, by id: the ids the server accepts. */
export function containersOf(model: FormModel): {
  repeats: Map<string, Repeat>;
  tabs: Map<string, Tabs>;
} {
  const repeats = new Map<string, Repeat>();
  const tabs = new Map<string, Tabs>();
  const visit = (items: readonly Item[]) => {
    for (const item of items) {
      switch (item.kind) {
        case 'field':
          visit(item.reveals ?? []);
          for (const content of Object.values(item.optionContent ?? {})) visit(content);
          break;
        case 'block':
          visit(item.items);
          break;
        case 'repeat':
          repeats.set(item.id, item);
          visit(item.items);
          break;
        case 'tabs':
          tabs.set(item.id, item);
          for (const tab of item.tabs) visit(tab.items);
          break;
        case 'switch':
          for (const branch of item.cases) visit(branch.items);
          break;
      }
    }
  };
  for (const page of model.pages) visit(page.items);
  return { repeats, tabs };
}
