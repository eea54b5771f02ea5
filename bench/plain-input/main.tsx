// The yardstick the first-load and keystroke benchmarks compare the application with: the same
// framework rendering one labelled, controlled text input and nothing else.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function PlainInput() {
  const [value, setValue] = useState('');
  return (
    <main>
      <label htmlFor="plain">First name</label>
      <input
        id="plain"
        type="text"
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
    </main>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <PlainInput />
  </StrictMode>,
);
