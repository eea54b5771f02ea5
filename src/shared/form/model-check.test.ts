import { describe, expect, it } from 'vitest';
import { fixtureModel } from '../test/fixture-model';
import type { FormModel, Item } from './model';
import { assertModel, checkModel, DeveloperError } from './model-check';

const withItems = (...items: Item[]): FormModel => ({
  pages: [{ id: 'p', route: '/p', title: 'P', items }],
});
const text = (key: string): Item => ({ kind: 'field', key, widget: 'text', label: key });

describe('the model check', () => {
  it('passes the fixture model, whose grouped conditions share a key on purpose', () => {
    expect(checkModel(fixtureModel)).toEqual([]);
  });

  it('names a key used on two pages', () => {
    const model: FormModel = {
      pages: [
        { id: 'a', route: '/a', title: 'A', items: [text('first_name')] },
        { id: 'b', route: '/b', title: 'B', items: [text('first_name')] },
      ],
    };
    expect(checkModel(model)).toEqual(['key "first_name" appears on pages a and b']);
  });

  it('checks a coursework grid: its key, its five columns and the keys naming its college', () => {
    const grid: Item = {
      kind: 'coursework',
      id: 'grid',
      key: 'college_name',
      label: 'Courses',
      collegeKeys: ['college_ceeb'],
      columns: [
        { cell: 'subject', label: 'Subject' },
        { cell: 'units', label: 'Units' },
      ],
    };
    expect(checkModel(withItems(text('college_name'), grid))).toEqual([
      'coursework "grid" must have one column for each of subject, number, title, units, grade',
      'key "college_name" appears twice on page p',
      'key "college_ceeb" read by a condition of "grid" is not in the data model',
    ]);
  });

  it('names a condition that reads a key outside the data model', () => {
    const model = withItems({
      kind: 'field',
      key: 'x',
      widget: 'text',
      label: 'X',
      showWhen: { valueKey: 'nope', operator: 'answered' },
    });
    expect(checkModel(model)).toEqual([
      'key "nope" read by a condition of "x" is not in the data model',
    ]);
  });

  it('refuses too many add-another blocks and bad prefixes', () => {
    const instances = Array.from({ length: 11 }, (_, i) => ({
      prefix: `c_${i}_`,
      label: `C ${i}`,
    }));
    const problems = checkModel(
      withItems(
        { kind: 'repeat', id: 'many', addLabel: 'c', instances, items: [text('name')] },
        {
          kind: 'repeat',
          id: 'bad',
          addLabel: 'b',
          instances: [{ prefix: 'Bad-', label: 'B' }],
          items: [text('name')],
        },
      ),
    );
    expect(problems).toContain('add-another "many" has 11 blocks; allowed 1 to 10');
    expect(problems).toContain('add-another "bad" has a bad prefix "Bad-"');
  });

  it('requires the empty entry first in select options', () => {
    const problems = checkModel(
      withItems({
        kind: 'field',
        key: 's',
        widget: 'select',
        label: 'S',
        options: [{ value: 'a', label: 'A' }],
      }),
    );
    expect(problems).toEqual([`key "s" options must start with the empty '--' entry`]);
  });

  it('names a file question with help of its own: its widget states the limits once', () => {
    const problems = checkModel(
      withItems({
        kind: 'field',
        key: 'doc',
        widget: 'file',
        label: 'Doc',
        help: 'A .pdf file of at most 1 MB.',
      }),
    );
    expect(problems).toEqual([
      'key "doc" is a file question with help text; its widget already states the file rules',
    ]);
  });

  it('names a rule for repeat instances outside a repeat', () => {
    const problems = checkModel(
      withItems({
        kind: 'field',
        key: 'x',
        widget: 'text',
        label: 'X',
        rules: [{ type: 'required', message: 'X.', instances: [0] }],
      }),
    );
    expect(problems).toEqual(['key "x" has a rule for repeat instances outside a repeat']);
  });

  it('throws a developer error outside production and only logs in production', () => {
    const broken = withItems(text('a'), text('a'));
    expect(() => assertModel(broken, 'test', () => {})).toThrow(DeveloperError);
    expect(() => assertModel(broken, 'development', () => {})).toThrow(
      'key "a" appears twice on page p',
    );
    const logged: string[] = [];
    assertModel(broken, 'production', (message) => logged.push(message));
    expect(logged[0]).toContain('key "a"');
  });
});
