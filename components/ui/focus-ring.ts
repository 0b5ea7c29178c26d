/** The ring a card-like label shows while the input inside it has keyboard focus. */
export const FOCUS_RING = [
  'has-[:focus-visible]:ring-2',
  'has-[:focus-visible]:ring-indigo-600',
  'has-[:focus-visible]:ring-offset-2',
].join(' ');
