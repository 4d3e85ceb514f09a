import { type Ref, useEffect, useRef } from 'react';
import { TextField } from '../../components/ui/input';

/**
 * What a field asks for to confirm it is you: a code from the authenticator app, one of the saved
 * recovery codes, or (for an account without a second factor) the password.
 */
export type CodeKind = 'code' | 'recovery' | 'password';

type FactorCodeFieldProps = {
  kind: CodeKind;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** Takes focus when shown and when the kind changes (the second step of a sign-in, a step-up). */
  focus?: boolean;
};

/**
 * The code field of a second factor. The app's code is numeric and the phone may fill it in
 * (one-time-code); a recovery code is letters and digits, never corrected or capitalized.
 */
export function FactorCodeField({ kind, value, onChange, error, focus = false }: FactorCodeFieldProps) {
  const input = useFocusOn(focus, kind);
  const common = {
    ref: input,
    value,
    error,
    required: true,
    onChange: (event: { target: { value: string } }) => onChange(event.target.value),
  };
  if (kind === 'password') {
    return (
      <TextField
        {...common}
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        placeholder="Your password"
      />
    );
  }
  return kind === 'code' ? (
    <TextField
      {...common}
      label="Authentication code"
      hint="The 6-digit code your authenticator app shows now."
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={9}
      placeholder="123456"
    />
  ) : (
    <TextField
      {...common}
      label="Recovery code"
      hint="One of the recovery codes you saved, like abcd-efgh-ijkm. Each works once."
      name="recoveryCode"
      autoComplete="off"
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      maxLength={40}
      placeholder="abcd-efgh-ijkm"
    />
  );
}

function useFocusOn(enabled: boolean, key: string): Ref<HTMLInputElement> {
  const input = useRef<HTMLInputElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus again when the field changes kind
  useEffect(() => {
    if (enabled) input.current?.focus();
  }, [enabled, key]);
  return input;
}
