import { PageContainer, PageHeader } from '../../components/ui/page-header';
import { LoadingState } from '../../components/ui/spinner';
import { useOperator } from '../../features/auth';
import { AuditLogSection, EscalatedDisputesSection, LedgerCheckSection } from '../../features/operator';
import { NotFoundPage } from './not-found-page';

/** /operator: the Operator console, for operators only; anyone else gets the 404 page. */
export function OperatorPage() {
  const { isOperator, isPending } = useOperator();
  if (isPending) {
    return (
      <PageContainer>
        <LoadingState label="Loading..." />
      </PageContainer>
    );
  }
  if (!isOperator) return <NotFoundPage />;
  return (
    <PageContainer className="space-y-10">
      <PageHeader
        title="Operator console"
        description="Escalated disputes, the ledger's invariants and the audit log."
        className="mb-2"
      />
      <EscalatedDisputesSection />
      <LedgerCheckSection />
      <AuditLogSection />
    </PageContainer>
  );
}
