import type { FormModel, Item } from '../../shared/form/model';
import type { ReadRound } from '../../shared/review/review-api';

/*
 * Who reads what: a pure function of the applications, their reads so far and the readers with
 * their loads, so the rules of fairness (least load first, caps, conflicts, never the same reader
 * twice on one application) are tested by hand-worked cases rather than through a database.
 */

export interface PlanConflict {
  kind: 'college' | 'applicant';
  value: string;
}

export interface PlanReader {
  id: string;
  /** Reads assigned or in draft now. */
  open: number;
  /** The most open reads this reader may hold; null for no cap. */
  cap: number | null;
  conflicts: readonly PlanConflict[];
}

export interface ExistingRead {
  /** Given for a read that waits for a reader (`readerId` null), so the plan can fill it. */
  id?: string;
  round: ReadRound;
  readerId: string | null;
}

export interface PlanApplication {
  id: string;
  /** Every college of the application: its CEEB code where given, and its name. */
  colleges: ReadonlyArray<{ ceeb: string | null; name: string }>;
  reads: readonly ExistingRead[];
}

export interface PlanOptions {
  /** The rounds each application should have, e.g. `['first', 'second']`. */
  rounds: readonly ReadRound[];
  /** Also give a reader to existing reads without one (third reads waiting). */
  fillWaiting?: boolean;
}

export interface PlannedRead {
  applicationId: string;
  round: ReadRound;
  readerId: string;
}

export interface PlannedFill {
  readId: string;
  applicationId: string;
  readerId: string;
}

export interface AssignmentPlan {
  /** New reads to insert, each with its reader. */
  reads: PlannedRead[];
  /** Waiting reads given a reader. */
  fills: PlannedFill[];
  /** New reads (or waiting reads) no reader could take: all conflicted, at the cap or reading it. */
  unassigned: Array<{ applicationId: string; round: ReadRound; readId?: string }>;
  /** Applications that already had every round asked for. */
  alreadyAssigned: number;
  /** Reads given to each reader by this plan, in the readers' order. */
  perReader: Map<string, number>;
}

interface ReaderState {
  id: string;
  index: number;
  open: number;
  cap: number;
  ceebs: Set<string>;
  names: Set<string>;
  applicants: Set<string>;
}

const foldName = (name: string) => name.trim().toLowerCase();

function stateOf(reader: PlanReader, index: number): ReaderState {
  const state: ReaderState = {
    id: reader.id,
    index,
    open: reader.open,
    cap: reader.cap ?? Number.POSITIVE_INFINITY,
    ceebs: new Set(),
    names: new Set(),
    applicants: new Set(),
  };
  for (const conflict of reader.conflicts) {
    const value = conflict.value.trim();
    if (value === '') continue;
    if (conflict.kind === 'applicant') state.applicants.add(value.toLowerCase());
    else {
      // A college conflict is either a code (matched exactly) or a name (matched without case).
      state.ceebs.add(value);
      state.names.add(foldName(value));
    }
  }
  return state;
}

function conflicted(reader: ReaderState, application: PlanApplication): boolean {
  if (reader.applicants.has(application.id.toLowerCase())) return true;
  if (reader.ceebs.size === 0) return false;
  for (const college of application.colleges) {
    if (college.ceeb && reader.ceebs.has(college.ceeb.trim())) return true;
    if (college.name.trim() !== '' && reader.names.has(foldName(college.name))) return true;
  }
  return false;
}

/** The eligible reader with the least open load; ties go to the earlier reader. */
function pick(
  readers: readonly ReaderState[],
  application: PlanApplication,
  reading: ReadonlySet<string>,
): ReaderState | null {
  let best: ReaderState | null = null;
  for (const reader of readers) {
    if (reader.open >= reader.cap) continue;
    if (reading.has(reader.id)) continue;
    if (best && reader.open >= best.open) continue;
    if (conflicted(reader, application)) continue;
    best = reader;
  }
  return best;
}

/**
 * Each missing read (and, if asked, each waiting read) goes to the eligible reader with the
 * least open load. Reads go one at a time, so loads stay within one of each other wherever caps,
 * conflicts and readers already on an application leave the choice free.
 */
export function planAssignments(
  applications: readonly PlanApplication[],
  readers: readonly PlanReader[],
  options: PlanOptions,
): AssignmentPlan {
  const states = readers.map(stateOf);
  const plan: AssignmentPlan = {
    reads: [],
    fills: [],
    unassigned: [],
    alreadyAssigned: 0,
    perReader: new Map(readers.map((reader) => [reader.id, 0])),
  };
  const give = (reader: ReaderState) => {
    reader.open += 1;
    plan.perReader.set(reader.id, (plan.perReader.get(reader.id) ?? 0) + 1);
  };

  for (const application of applications) {
    const reading = new Set<string>();
    const rounds = new Set<ReadRound>();
    for (const read of application.reads) {
      rounds.add(read.round);
      if (read.readerId) reading.add(read.readerId);
    }
    if (options.fillWaiting) {
      for (const read of application.reads) {
        if (read.readerId !== null || !read.id) continue;
        const reader = pick(states, application, reading);
        if (!reader) {
          plan.unassigned.push({
            applicationId: application.id,
            round: read.round,
            readId: read.id,
          });
          continue;
        }
        give(reader);
        reading.add(reader.id);
        plan.fills.push({ readId: read.id, applicationId: application.id, readerId: reader.id });
      }
    }
    const missing = options.rounds.filter((round) => !rounds.has(round));
    if (missing.length === 0 && options.rounds.length > 0) plan.alreadyAssigned += 1;
    for (const round of missing) {
      const reader = pick(states, application, reading);
      if (!reader) {
        plan.unassigned.push({ applicationId: application.id, round });
        continue;
      }
      give(reader);
      reading.add(reader.id);
      plan.reads.push({ applicationId: application.id, round, readerId: reader.id });
    }
  }
  return plan;
}

/**
 * The answer keys naming each college an application can list, from the model's coursework
 * grids (`collegeKeys`: the code's key first where there are two, the name's last) in every
 * instance of their repeat. Submitted answers hold only what was shown, so reading these keys
 * gives exactly the colleges named.
 */
export function collegeKeysOf(model: FormModel): Array<{ ceeb: string | null; name: string }> {
  const found: Array<{ ceeb: string | null; name: string }> = [];
  const seen = new Set<string>();
  const visit = (items: readonly Item[], prefix: string | null) => {
    for (const item of items) {
      switch (item.kind) {
        case 'block':
          visit(item.items, prefix);
          break;
        case 'repeat':
          for (const instance of item.instances) visit(item.items, instance.prefix);
          break;
        case 'tabs':
          for (const tab of item.tabs) visit(tab.items, prefix);
          break;
        case 'switch':
          for (const branch of item.cases) visit(branch.items, prefix);
          break;
        case 'coursework': {
          const keys = item.collegeKeys.map((key) =>
            key.startsWith('$') ? `${prefix ?? ''}${key.slice(1)}` : key,
          );
          const name = keys.at(-1);
          if (!name) break;
          const ceeb = keys.length > 1 ? (keys[0] ?? null) : null;
          const id = `${ceeb ?? ''} ${name}`;
          if (!seen.has(id)) found.push({ ceeb, name });
          seen.add(id);
          break;
        }
        default:
          break;
      }
    }
  };
  for (const page of model.pages) visit(page.items, null);
  return found;
}
