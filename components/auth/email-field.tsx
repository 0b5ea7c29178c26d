import { Field, TextInput } from '@/components/ui/field';

/** The account e-mail field of the sign-in, sign-up and forgotten-password forms. */
export function EmailField({
  defaultValue,
  autoFocus,
}: {
  defaultValue?: string;
  autoFocus?: boolean;
}) {
  return (
    <Field id="email" label="Email">
      <TextInput
        id="email"
        name="email"
        type="email"
        required
        autoComplete="email"
        defaultValue={defaultValue}
        autoFocus={autoFocus}
      />
    </Field>
  );
}
