import { PageContainer, PageHeader } from '../../components/ui/page-header';
import { MyBidsList } from '../../features/discovery';

/** My Bids (/bids): every bid the user placed, with its deal and what became of it, kept live. */
export function MyBidsPage() {
  return (
    <PageContainer className="max-w-5xl">
      <PageHeader
        title="My Bids"
        description="The bids you placed to become a deal's dealmaker, and what became of each."
      />
      <MyBidsList />
    </PageContainer>
  );
}
