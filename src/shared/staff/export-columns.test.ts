import { describe, expect, it } from 'vitest';
import { applicationModel } from '../application/application-model';
import { answerKeySpecs } from '../form/answer-keys';
import { EXPORT_COLUMNS_MAX, EXPORT_FIXED_COLUMNS } from './application-api';
import {
  CHECKLIST_COLUMN,
  CHECKLIST_MISSING_COLUMN,
  checkExportColumns,
  DEFAULT_EXPORT_COLUMNS,
  EXPORT_CREDIT_COLUMNS,
  EXPORT_DECISION_COLUMNS,
  exportColumns,
  isChecklistItemColumn,
} from './export-columns';

describe('the export columns', () => {
  const columns = exportColumns(applicationModel);
  const ids = columns.map((column) => column.id);
  const known = new Set(ids);

  it('offer the fixed columns, every answer key of the model and the checklist, once each', () => {
    expect(ids.slice(0, EXPORT_FIXED_COLUMNS.length)).toEqual([...EXPORT_FIXED_COLUMNS]);
    expect(new Set(ids).size).toBe(ids.length);
    const answerIds = columns.filter((column) => column.group === 'answer').map((c) => c.id);
    expect(new Set(answerIds)).toEqual(new Set(answerKeySpecs(applicationModel).keys()));
    expect(ids.slice(-2)).toEqual([CHECKLIST_COLUMN, CHECKLIST_MISSING_COLUMN]);
  });

  it('offer the receipt and the decision after the fixed columns, named apart from any answer', () => {
    const decision = columns.filter((column) => column.group === 'decision').map((c) => c.id);
    expect(decision).toEqual([...EXPORT_DECISION_COLUMNS]);
    expect(ids.indexOf(EXPORT_DECISION_COLUMNS[0])).toBe(EXPORT_FIXED_COLUMNS.length);
    const answers = answerKeySpecs(applicationModel);
    expect(decision.filter((id) => answers.has(id))).toEqual([]);
  });

  it('offer transfer credit after the coursework totals, one column per tenant requirement', () => {
    const withRequirements = exportColumns(applicationModel, [
      { id: 'golden_four', label: 'Golden Four' },
      { id: 'units_60', label: '60 units' },
    ]);
    const all = withRequirements.map((column) => column.id);
    const credit = withRequirements.filter((column) => column.group === 'credit');
    expect(credit).toEqual([
      ...EXPORT_CREDIT_COLUMNS.map((id) => expect.objectContaining({ id })),
      { id: 'req_golden_four', label: 'Golden Four (requirement status)', group: 'credit' },
      { id: 'req_units_60', label: '60 units (requirement status)', group: 'credit' },
    ]);
    expect(EXPORT_CREDIT_COLUMNS).toEqual(['mapped_share', 'needs_review']);
    expect(all.indexOf('mapped_share')).toBe(all.indexOf('in_progress_units') + 1);
    expect(new Set(all).size).toBe(all.length);
    // Without the tenant's requirements only the two summary columns.
    expect(columns.filter((column) => column.group === 'credit').map((c) => c.id)).toEqual([
      ...EXPORT_CREDIT_COLUMNS,
    ]);
  });

  it('give a choice its code and its _desc label, each labelled', () => {
    const major = columns.find((column) => column.id === 'applied_major');
    const label = columns.find((column) => column.id === 'applied_major_desc');
    expect(major?.label).toBeTruthy();
    expect(label?.label).toBe(`${major?.label} (label)`);
    expect(ids.indexOf('applied_major_desc')).toBe(ids.indexOf('applied_major') + 1);
    for (const column of columns) expect(column.label.trim()).not.toBe('');
  });

  it('default to columns that exist', () => {
    expect(DEFAULT_EXPORT_COLUMNS.filter((id) => !known.has(id))).toEqual([]);
    expect(checkExportColumns(undefined, known)).toEqual({
      ok: true,
      columns: [...DEFAULT_EXPORT_COLUMNS],
    });
  });

  it('take a comma list or a repeated parameter, without repeats', () => {
    expect(checkExportColumns('id, first_name,id', known)).toEqual({
      ok: true,
      columns: ['id', 'first_name'],
    });
    expect(checkExportColumns(['id', 'gender,gender_desc'], known)).toEqual({
      ok: true,
      columns: ['id', 'gender', 'gender_desc'],
    });
  });

  it('accept one checklist item by its key, and nothing else of that shape', () => {
    expect(isChecklistItemColumn('checklist:fee')).toBe(true);
    expect(isChecklistItemColumn('checklist:document:hs_transcript')).toBe(true);
    expect(isChecklistItemColumn('checklist:transcript:2')).toBe(true);
    expect(isChecklistItemColumn('checklist:nothing')).toBe(false);
    expect(checkExportColumns('checklist:fee', known)).toEqual({
      ok: true,
      columns: ['checklist:fee'],
    });
  });

  it('refuse unknown, empty and too many columns', () => {
    expect(checkExportColumns('id,password,answers', known)).toEqual({
      ok: false,
      reason: 'unknown',
      unknown: ['password', 'answers'],
    });
    expect(checkExportColumns(' , ', known)).toEqual({ ok: false, reason: 'empty' });
    const items = Array.from({ length: EXPORT_COLUMNS_MAX }, (_, n) => `checklist:tenant:x${n}`);
    const many = [...known, ...items].slice(0, EXPORT_COLUMNS_MAX + 1);
    expect(many.length).toBe(EXPORT_COLUMNS_MAX + 1);
    expect(checkExportColumns(many.join(','), known)).toEqual({ ok: false, reason: 'too_many' });
    expect(checkExportColumns('id,'.repeat(10_000), known)).toEqual({
      ok: false,
      reason: 'too_many',
    });
  });
});
