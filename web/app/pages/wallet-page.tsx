import { limits } from '../../../contract/limits';
import { amountToCents, formatUsdCents } from '../../../contract/money';
import { PageContainer, PageHeader } from '../../components/ui/page-header';
import {
  depositSuccess,
  TransactionHistory,
  useWallet,
  WalletMovementForm,
  WalletOverview,
  withdrawSuccess,
} from '../../features/wallet';
import { formatMoney } from '../../lib/money';

const maxDeposit = formatUsdCents(limits.depositCents.max);

/** /deposit: the signed-in user's wallet, its deposits and withdrawals, and its history (spec §2 Wallet page). */
export function WalletPage() {
  const wallet = useWallet();
  const balanceCents = wallet.data ? amountToCents(wallet.data.balance) : null;

  return (
    <PageContainer className="space-y-6">
      <PageHeader
        title="Wallet & Deposits"
        description="Add money to your wallet to pay your half of a deal's escrow, and follow every movement."
        className="mb-2"
      />
      <WalletOverview />
      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <div className="space-y-6">
          <WalletMovementForm
            kind="deposit"
            title="Deposit Money"
            description="Deposits are simulated: no card or bank is charged."
            submitLabel="Deposit"
            maxCents={limits.depositCents.max}
            tooMuch={() => `You can deposit at most ${maxDeposit} at a time.`}
            hint={`From $0.01 to ${maxDeposit}.`}
            success={depositSuccess}
            failure="Failed to process deposit. Please try again."
          />
          <WalletMovementForm
            kind="withdraw"
            title="Withdraw Money"
            description="Take money out of your wallet, up to your balance."
            submitLabel="Withdraw"
            maxCents={balanceCents === null ? null : Math.min(balanceCents, limits.withdrawCents.max)}
            tooMuch={() =>
              `You cannot withdraw more than your balance (${formatMoney(wallet.data?.balance ?? 0)}).`
            }
            hint={wallet.data ? `Available: ${formatMoney(wallet.data.balance)}.` : 'Loading your balance...'}
            success={withdrawSuccess}
            failure="Failed to process withdrawal. Please try again."
          />
        </div>
        <TransactionHistory />
      </div>
    </PageContainer>
  );
}
