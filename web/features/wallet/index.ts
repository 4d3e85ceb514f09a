/** The signed-in user's wallet: balance, deposits and withdrawals, transaction history. */

// The Transaction History card.
export { TransactionHistory } from './transaction-history';
// The wallet in the query cache: read it, and update it after money moved (escrow payments, live events).
export { applyWallet, useWallet, walletKeys } from './wallet-api';
// The Deposit / Withdraw form, with the success texts of each.
export { depositSuccess, WalletMovementForm, withdrawSuccess } from './wallet-movement-form';
// The Wallet Overview card: balance and totals.
export { WalletOverview } from './wallet-overview';
