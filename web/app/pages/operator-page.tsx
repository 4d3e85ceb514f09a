import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { PageContainer, PageHeader } from '../../components/ui/page-header';
import { LoadingState } from '../../components/ui/spinner';
import { useOperator } from '../../features/auth';
import { AuditLogSection, EscalatedDisputesSection, LedgerCheckSection } from '../../features/operator';
import { NotFoundPage } from './not-found-page';

/** An operator without a second factor: the console stays shut until one is on (the server refuses too). */
function SecondFactorFirst() {
  return (
    <PageContainer>
      <PageHeader
        title="Operator console"
        description="Escalated disputes, the ledger's invariants and the audit log."
      />
      <Card className="max-w-2xl">
        <CardHeader>
          <CardTitle>Turn on two-factor sign-in first</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          <p className="text-slate-600">
            Operators move other people's money, so the console opens only for an account protected by an
            authenticator app or a passkey as well as its password.
          </p>
          <Link to="/profile#security" className={buttonClasses()}>
            Go to Security settings
          </Link>
        </CardContent>
      </Card>
    </PageContainer>
  );
}

/** /operator: the Operator console, for operators only; anyone else gets the 404 page. */
export function OperatorPage() {
  const { isOperator, secondFactor, isPending } = useOperator();
  if (isPending) {
    return (
      <PageContainer>
        <LoadingState label="Loading..." />
      </PageContainer>
    );
  }
  if (!isOperator) return <NotFoundPage />;
  if (!secondFactor) return <SecondFactorFirst />;
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
