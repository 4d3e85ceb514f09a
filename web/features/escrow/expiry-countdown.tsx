import { ClockIcon } from '../../components/ui/icons';
import { useNow } from '../../lib/use-now';
import { expiryCountdownText } from './escrow-state';

/** 'Half-payment expires in 23 h', renewed every 30 seconds while a lone half waits for the other. */
export function ExpiryCountdown({ expiresAt }: { expiresAt: string }) {
  const now = useNow(30_000);
  const text = expiryCountdownText(expiresAt, now);
  if (!text) return null;
  return (
    <p className="inline-flex items-center gap-1.5 rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 ring-1 ring-amber-100">
      <ClockIcon size={16} />
      <span>
        {text}
        <span className="font-normal text-amber-800"> (refunded unless the other half is paid)</span>
      </span>
    </p>
  );
}
