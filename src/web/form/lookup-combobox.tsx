import {
  createContext,
  type FocusEvent,
  type RefObject,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import {
  type ActionMeta,
  type AriaGuidanceProps,
  type ClassNamesConfig,
  components,
  type FormatOptionLabelMeta,
  type InputActionMeta,
  type InputProps,
  type SelectInstance,
  type SingleValue,
  type StylesConfig,
} from 'react-select';
import AsyncCreatableSelect from 'react-select/async-creatable';
import {
  LOOKUP_DEBOUNCE_MS,
  LOOKUP_MAX_WAIT_MS,
  SELECT_MENU_MAX_HEIGHT_PX,
  SELECT_MENU_MIN_HEIGHT_PX,
  SELECT_MENU_PAGE_SIZE,
} from '../../shared/constants';
import {
  answersFromLabel,
  answersFromRecord,
  choicesOfItems,
  type LookupBinding,
} from '../../shared/lookup/lookup-answers';
import { type LookupRecordField, normaliseLookupText } from '../../shared/lookup/lookup-api';
import { cx } from '../ui/cx';
import { debouncedLoader } from './debounce';
import formStyles from './form.module.css';
import { useFormContext } from './form-context';
import { useAnswer } from './hooks';
import { fetchRecord, fetchSuggestions } from './lookup-client';
import styles from './lookup-combobox.module.css';

/** Spec 000 sections 7 and 8: the texts of the autocomplete. */
export const USE_PREFIX = 'Use: ';
export const NO_OPTIONS_TEXT = 'No options';
export const LOADING_TEXT = 'Loading...';

export interface LookupComboboxProps {
  /** The field's own answer key (with its repeat prefix): what the applicant types. */
  answerKey: string;
  /** The repeat instance's prefix, joined to the keys a picked record fills. */
  prefix: string;
  binding: LookupBinding;
  /** The record field the applicant types into: `name` for schools, `address_line_1`. */
  ownField: LookupRecordField;
  inputId: string;
  describedBy: string | undefined;
  invalid: boolean;
  required: boolean;
  maxLength: number;
  placeholder: string;
  /** Read to screen readers when the field first takes the focus. */
  guidance: string;
  /** Set when the plain input shown while this loaded had the focus: it passes on to this one. */
  takeFocus?: RefObject<boolean>;
}

interface LookupOption {
  /** A result's id; for typed text, the text itself. */
  value: string;
  label: string;
  subText: string;
  typed?: boolean;
}

/** What the inner input needs beyond react-select's props, without remounting it on change. */
interface InputExtrasValue {
  describedBy: string | undefined;
  maxLength: number;
  required: boolean;
}

const InputExtras = createContext<InputExtrasValue>({
  describedBy: undefined,
  maxLength: 100,
  required: false,
});

// react-select's own `required` also adds a hidden input for native form checks; this form has none.
function DescribedInput(props: InputProps<LookupOption, false>) {
  const { describedBy, maxLength, required } = useContext(InputExtras);
  const ownDescription = props['aria-describedby'];
  return (
    <components.Input
      {...props}
      maxLength={maxLength}
      aria-required={required || undefined}
      aria-describedby={[describedBy, ownDescription].filter(Boolean).join(' ') || undefined}
    />
  );
}

/** The suggestions' tallest: the menu's largest height plus its border, margin and padding. */
const SUGGESTIONS_ROOM_PX = SELECT_MENU_MAX_HEIGHT_PX + 14;

/**
 * Scrolls the page just enough that the suggestions under the control fit in what the applicant
 * sees. On phones that is the visual viewport, which the on-screen keyboard shrinks while the
 * layout viewport (all react-select measures) stays as tall, so the list would open under the
 * keyboard. The control itself stays in view.
 */
function makeRoomForSuggestions(control: HTMLElement): void {
  const visible = window.visualViewport;
  const visibleTop = visible?.offsetTop ?? 0;
  const visibleBottom = visibleTop + (visible?.height ?? window.innerHeight);
  const { top, bottom } = control.getBoundingClientRect();
  const margin = Number.parseFloat(getComputedStyle(control).scrollMarginTop) || 0;
  const shortfall = bottom + SUGGESTIONS_ROOM_PX - visibleBottom;
  const scrollable = top - visibleTop - margin;
  const by = Math.min(shortfall, scrollable);
  if (by > 0) window.scrollBy({ top: by, behavior: 'instant' });
}

const classNames: ClassNamesConfig<LookupOption, false> = {
  container: () => cx(styles.container),
  control: ({ isFocused }) => cx(formStyles.input, styles.control, isFocused && styles.focused),
  valueContainer: () => cx(styles.valueContainer),
  placeholder: () => cx(styles.placeholder),
  singleValue: () => cx(styles.singleValue),
  input: () => cx(styles.input),
  indicatorsContainer: () => cx(styles.indicators),
  clearIndicator: () => cx(styles.clear),
  loadingIndicator: () => cx(styles.loadingIndicator),
  menu: () => cx(styles.menu),
  menuList: () => cx(styles.menuList),
  option: ({ isFocused }) => cx(styles.option, isFocused && styles.optionFocused),
  noOptionsMessage: () => cx(styles.notice),
  loadingMessage: () => cx(styles.notice),
};

/** react-select's control forces `outline: 0 !important`, which would hide the focus ring. */
const selectStyles: StylesConfig<LookupOption, false> = {
  control: ({ outline: _forcedOff, ...rest }) => rest,
};

const selectComponents = {
  Input: DescribedInput,
  DropdownIndicator: null,
  IndicatorSeparator: null,
};

function formatOptionLabel(option: LookupOption, meta: FormatOptionLabelMeta<LookupOption>) {
  if (meta.context === 'value' || !option.subText) return option.label;
  return (
    <span className={styles.optionBody}>
      <span className={styles.optionText}>{option.label}</span>
      <span className={styles.optionSubText}>{option.subText}</span>
    </span>
  );
}

/**
 * A text field that suggests schools or addresses as the applicant types (spec 001 sections 3
 * and 7). Picking a suggestion fills the related answers and their `_desc` labels; anything typed
 * can be kept as it is ('Use: ...', Enter, or simply leaving the field), so a school that is not
 * listed is never a dead end. Failures are silent: no suggestions, or the chosen label kept.
 */
export default function LookupCombobox(props: LookupComboboxProps) {
  const { answerKey, prefix, binding, ownField, inputId, maxLength } = props;
  const { store, page } = useFormContext();
  // The state and country a record gives must be codes their fields on this page offer.
  const choicesOf = useMemo(() => choicesOfItems(page.items), [page]);
  const answer = useAnswer(answerKey);
  const text = typeof answer === 'string' ? answer : '';
  const [inputValue, setInputValue] = useState('');
  /** The label of a picked result while its record loads. */
  const [picking, setPicking] = useState<string | null>(null);
  /** Bumped by every choice, so a record arriving after a newer choice is dropped. */
  const choice = useRef(0);
  /** A choice was just made: react-select's closing of the menu must not bring the text back. */
  const justChose = useRef(false);
  /** The applicant changed the input's text since the field took the focus. */
  const edited = useRef(false);
  const select = useRef<SelectInstance<LookupOption, false> | null>(null);

  const loader = useMemo(
    () =>
      debouncedLoader((query: string) => fetchSuggestions(binding.category, query), {
        wait: LOOKUP_DEBOUNCE_MS,
        maxWait: LOOKUP_MAX_WAIT_MS,
      }),
    [binding.category],
  );
  useEffect(() => () => loader.cancel(), [loader]);
  useEffect(
    () => () => {
      choice.current++;
    },
    [],
  );
  /** The focus came from the plain input: the applicant is typing, so nothing is selected. */
  const resumeTyping = useRef(false);
  const { takeFocus } = props;
  useLayoutEffect(() => {
    if (!takeFocus?.current) return;
    resumeTyping.current = true;
    select.current?.focus();
  }, [takeFocus]);

  const loadOptions = useCallback(
    async (input: string): Promise<LookupOption[]> => {
      const query = normaliseLookupText(input);
      if (query === '') return [];
      const results = await loader(query);
      return results.map((result) => ({
        value: result.id,
        label: result.text,
        subText: result.sub_text,
      }));
    },
    [loader],
  );

  const keepTyped = (typed: string) => {
    choice.current++;
    justChose.current = true;
    setPicking(null);
    store.setMany(answersFromLabel(normaliseLookupText(typed), answerKey, ownField));
  };

  const pick = async (option: LookupOption) => {
    const mine = ++choice.current;
    setPicking(option.label);
    const record = await fetchRecord(binding.category, option.value);
    if (mine !== choice.current) return;
    setPicking(null);
    store.setMany(
      record
        ? answersFromRecord(record, binding, prefix, choicesOf)
        : answersFromLabel(option.label, answerKey, ownField),
    );
  };

  const onChange = (option: SingleValue<LookupOption>, meta: ActionMeta<LookupOption>) => {
    justChose.current = true;
    if (meta.action === 'select-option' && option) {
      void pick(option);
    } else if (meta.action === 'clear' || meta.action === 'pop-value') {
      choice.current++;
      setPicking(null);
      store.set(answerKey, '');
    }
  };

  const onInputChange = (next: string, meta: InputActionMeta) => {
    switch (meta.action) {
      case 'input-change':
        justChose.current = false;
        edited.current = true;
        setInputValue(next);
        break;
      case 'input-blur': {
        // Leaving the field keeps what was typed, as a plain text field would; text deleted
        // down to nothing empties the answer.
        const typed = normaliseLookupText(meta.prevInputValue);
        if (edited.current && !justChose.current && typed !== text) {
          if (typed === '') {
            choice.current++;
            store.set(answerKey, '');
          } else {
            keepTyped(typed);
          }
        }
        edited.current = false;
        setInputValue('');
        break;
      }
      case 'set-value':
        // react-select empties the input and closes the list before it reports the choice.
        justChose.current = true;
        setInputValue('');
        break;
      case 'menu-close': {
        // Escape closes the suggestions but keeps the text; a choice or leaving empties it.
        const stillTyping = !justChose.current && document.activeElement?.id === inputId;
        setInputValue(stillTyping ? meta.prevInputValue : '');
        break;
      }
      default:
        setInputValue('');
    }
  };

  // Coming back to the field puts its answer in the input, selected, to edit or to type over.
  const onFocus = (event: FocusEvent<HTMLInputElement>) => {
    justChose.current = false;
    edited.current = false;
    const resuming = resumeTyping.current;
    resumeTyping.current = false;
    if (inputValue !== '' || text === '') return;
    setInputValue(text);
    const input = event.target;
    if (!resuming) requestAnimationFrame(() => input.select());
  };

  const shown = picking ?? text;
  const value: LookupOption | null = shown ? { value: shown, label: shown, subText: '' } : null;
  const guidance = props.guidance;
  const ariaLiveMessages = useMemo(
    () => ({
      guidance: ({ context, isInitialFocus }: AriaGuidanceProps) => {
        if (context === 'input') return isInitialFocus ? guidance : '';
        if (context === 'menu')
          return 'Use Up and Down to choose a suggestion, press Enter to take it, press Escape to close the list.';
        return '';
      },
    }),
    [guidance],
  );

  return (
    <InputExtras.Provider
      value={{ describedBy: props.describedBy, maxLength, required: props.required }}
    >
      <AsyncCreatableSelect<LookupOption, false>
        ref={select}
        inputId={inputId}
        instanceId={answerKey}
        unstyled
        classNames={classNames}
        styles={selectStyles}
        components={selectComponents}
        value={value}
        inputValue={inputValue}
        onInputChange={onInputChange}
        onChange={onChange}
        onCreateOption={keepTyped}
        onFocus={onFocus}
        loadOptions={loadOptions}
        filterOption={null}
        formatOptionLabel={formatOptionLabel}
        formatCreateLabel={(input) => `${USE_PREFIX}${input}`}
        getNewOptionData={(input) => ({
          value: input,
          label: `${USE_PREFIX}${input}`,
          subText: '',
          typed: true,
        })}
        isValidNewOption={(input) => {
          const typed = normaliseLookupText(input);
          return typed !== '' && typed !== text;
        }}
        noOptionsMessage={() => NO_OPTIONS_TEXT}
        loadingMessage={() => LOADING_TEXT}
        placeholder={props.placeholder}
        isClearable
        openMenuOnClick={false}
        tabSelectsValue={false}
        pageSize={SELECT_MENU_PAGE_SIZE}
        maxMenuHeight={SELECT_MENU_MAX_HEIGHT_PX}
        minMenuHeight={SELECT_MENU_MIN_HEIGHT_PX}
        aria-invalid={props.invalid || undefined}
        // One way of keeping the list in view everywhere, measured against the visual viewport.
        menuShouldScrollIntoView={false}
        onMenuOpen={() => {
          requestAnimationFrame(() => {
            const control = select.current?.controlRef;
            if (control) makeRoomForSuggestions(control);
          });
        }}
        ariaLiveMessages={ariaLiveMessages}
        screenReaderStatus={({ count }) =>
          `${count} ${count === 1 ? 'suggestion' : 'suggestions'} available`
        }
      />
    </InputExtras.Provider>
  );
}
