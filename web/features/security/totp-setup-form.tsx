import { type FormEvent, useEffect, useRef, useState } from 'react';
import { totpConfirmSchema } from '../../../contract/security';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/input';
import { serverReason } from '../../lib/api';
import { checkWith } from '../../lib/form-check';
import type { TotpSetup } from './security-api';

type TotpSetupFormProps = {
  setup: TotpSetup;
  confirming: { isPending: boolean; error: unknown };
  onConfirm: (code: string) => void;
  onCancel: () => void;
};

/**
 * Turning the app on: scan the QR code (or type the key), then prove it works with a code from the app.
 * The QR code is the server's SVG shown as an image (never put into the page as markup).
 */
export function TotpSetupForm({ setup, confirming, onConfirm, onCancel }: TotpSetupFormProps) {
  const [code, setCode] = useState('');
  // What the contract's schema refused at the last submit.
  const [problem, setProblem] = useState<string | null>(null);
  // The QR code is for the eyes; the keyboard goes straight to the code.
  const codeInput = useRef<HTMLInputElement>(null);
  useEffect(() => codeInput.current?.focus({ preventScroll: true }), []);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (confirming.isPending) return;
    const checked = checkWith(totpConfirmSchema, { code });
    setProblem(checked.ok ? null : checked.problem);
    if (checked.ok) onConfirm(code);
  };

  return (
    <form onSubmit={submit} className="space-y-5">
      <ol className="list-decimal space-y-4 pl-5 text-sm text-slate-700 marker:font-semibold">
        <li className="space-y-3">
          <p>Scan this QR code with your authenticator app.</p>
          <img
            src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qrSvg)}`}
            alt="QR code that adds Dealmaker to your authenticator app"
            width={176}
            height={176}
            className="h-44 w-44 rounded-lg border border-slate-200 bg-white p-2"
          />
        </li>
        <li className="space-y-2">
          <p>Or type this setup key into the app:</p>
          <code className="block rounded-lg bg-slate-50 px-3 py-2 font-mono text-sm tracking-wider break-all text-slate-900 select-all">
            {setup.secret}
          </code>
        </li>
        <li className="space-y-3">
          <p>Enter the 6-digit code the app shows for Dealmaker.</p>
          {confirming.error ? (
            <Alert variant="error" detail={serverReason(confirming.error)}>
              That code did not turn the app on.
            </Alert>
          ) : null}
          <TextField
            ref={codeInput}
            label="Authentication code"
            error={problem ?? undefined}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            maxLength={9}
            placeholder="123456"
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        </li>
      </ol>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" loading={confirming.isPending}>
          {confirming.isPending ? 'Turning on...' : 'Confirm and turn on'}
        </Button>
        <Button variant="outline" onClick={onCancel} disabled={confirming.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
