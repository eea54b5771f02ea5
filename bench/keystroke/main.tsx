import { Profiler, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { todayIso } from '../../src/shared/form/validate';
import { AnswerStore } from '../../src/web/app-state/answer-store';
import { createLocalCopy } from '../../src/web/app-state/local-copy';
import { indexModel } from '../../src/web/app-state/model-index';
import { FormContext, type FormContextValue } from '../../src/web/form/form-context';
import { ItemList } from '../../src/web/form/items';
import '../../src/web/styles/global.css';
import { benchModel } from './bench-page';

/** Counters the benchmark reads: field renders, page commits and when the last one ended. */
interface BenchCounters {
  fieldRenders: number;
  commits: number;
  lastCommitEnd: number;
  keydownAt: number;
  /** React's own rendering time (Profiler actualDuration), summed. */
  renderMs: number;
  ready: boolean;
}

declare global {
  interface Window {
    __bench: BenchCounters;
  }
}

const counters: BenchCounters = {
  fieldRenders: 0,
  commits: 0,
  lastCommitEnd: 0,
  keydownAt: 0,
  renderMs: 0,
  ready: false,
};
window.__bench = counters;
document.addEventListener(
  'keydown',
  () => {
    counters.keydownAt = performance.now();
  },
  { capture: true },
);

const model = benchModel();
const page = model.pages[0];
if (!page) throw new Error('The benchmark model has no page.');

// A signed-in student's store: dirty tracking and the browser copy of unsaved answers included.
const store = new AnswerStore();
store.setModel(indexModel(model));
store.startSession({
  id: 'bench',
  mode: 'account',
  answers: {},
  localCopy: createLocalCopy('bench:unsaved'),
});

const today = todayIso();
const context: FormContextValue = {
  store,
  page,
  isLoggedIn: true,
  validating: false,
  today,
  currentYear: Number(today.slice(0, 4)),
  actions: { switchTab: async () => {}, addAnother: async () => false },
  wrapField: (key: string, node: ReactNode) => (
    <Profiler
      id={key}
      onRender={() => {
        counters.fieldRenders += 1;
      }}
    >
      {node}
    </Profiler>
  ),
};

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain #root.');
createRoot(container).render(
  <Profiler
    id="page"
    onRender={(_id, _phase, actualDuration) => {
      counters.commits += 1;
      counters.renderMs += actualDuration;
      counters.lastCommitEnd = performance.now();
    }}
  >
    <FormContext.Provider value={context}>
      <ItemList items={page.items} prefix="" instance={null} resolveKey={(key) => key} depth={0} />
    </FormContext.Provider>
  </Profiler>,
);
requestAnimationFrame(() => {
  counters.ready = true;
});
