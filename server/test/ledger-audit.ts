import type { DbOrTx } from '../db/client';
import { checkLedger } from '../features/wallet/ledger-check';

/**
 * Every money invariant (server/features/wallet/ledger-check.ts), as one line
 * per violation: none when the books are right. The money tests run it after
 * each scenario.
 */
export async function auditLedger(db: DbOrTx): Promise<string[]> {
  const result = await checkLedger(db);
  return result.checks.flatMap((check) =>
    check.violations.map((violation) => `${check.name}: ${JSON.stringify(violation)}`),
  );
}
