/** Business constants and limits from spec 000 section 9 and spec 001 section 9. */
export const INACTIVITY_TIMEOUT_MS = 900_000;
export const INACTIVITY_PROMPT_BEFORE_MS = 60_000;

export const PASSWORD_MIN_LENGTH = 12;
export const CONFIRMATION_CODE_LENGTH = 6;

export const DEFAULT_TEXT_MAX_LENGTH = 45;
export const DEFAULT_TEXTAREA_LIMIT = 1500;

export const STATUS_POST_RETRIES = 2;
export const CONVERSION_POLL_MS = 2000;
export const PDF_POLL_ACTIVE_MS = 1000;
export const PDF_POLL_IDLE_MS = 600_000;

export const TOAST_DURATION_MS = 5000;
export const ERROR_TOAST_DURATION_MS = 300_000;
export const TOAST_SWIPE_THRESHOLD = 50;
export const TOAST_HOTKEY = 'F8';

export const LOOKUP_MAX_RESULTS = 5;
export const LOOKUP_DEBOUNCE_MS = 200;
export const LOOKUP_MAX_WAIT_MS = 500;

export const ADD_ANOTHER_DEFAULT = 1;
export const ADD_ANOTHER_MAX = 10;

export const FILE_MAX_BYTES = 1024 * 1024;
export const FILE_NAME_MAX_LENGTH = 32;

export const BREAKPOINT_MOBILE_PX = 675;
export const BREAKPOINT_TABLET_PX = 900;

/** The menu of a custom select (the school and address search): Page Up/Down step and heights. */
export const SELECT_MENU_PAGE_SIZE = 5;
export const SELECT_MENU_MAX_HEIGHT_PX = 300;
export const SELECT_MENU_MIN_HEIGHT_PX = 140;

/** The spinner must cover everything, including open dialogs and toasts. */
export const MAX_Z_INDEX = 2_147_483_647;
