/** A text field of a submitted form ('' when absent or when a file was sent instead). */
export function textField(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
