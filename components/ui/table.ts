/**
 * Classes for a table that reflows into one card per row below the `sm` breakpoint: the header
 * row is visually hidden and each cell shows its column name (its `data-label`) on its left.
 * Nothing scrolls sideways on a phone, and every column (actions included) stays in view.
 */
export const reflowTable = {
  table: 'w-full text-left text-sm max-sm:block',
  thead: 'border-b border-slate-200 text-slate-600 max-sm:sr-only',
  tbody: 'divide-y divide-slate-100 max-sm:block',
  tr: 'max-sm:block max-sm:py-3',
  td:
    'max-sm:flex max-sm:min-w-0 max-sm:items-center ' +
    'max-sm:justify-between max-sm:gap-4 max-sm:!py-1 max-sm:!pr-0 ' +
    'max-sm:text-right max-sm:before:shrink-0 ' +
    'max-sm:before:text-left max-sm:before:font-medium ' +
    'max-sm:before:text-slate-600 ' +
    'max-sm:before:content-[attr(data-label)]',
};
