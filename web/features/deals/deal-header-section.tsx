import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ArrowLeftIcon, CalendarIcon, ClockIcon, WalletIcon } from '../../components/ui/icons';
import { DocumentTitle } from '../../components/ui/page-header';
import { formatMoney } from '../../lib/money';
import { formatDateTime } from '../../lib/time';
import type { DealSectionProps } from './deal-section';
import { DealStatusBadge } from './deal-status-badge';

/** Back to Deals, then the deal's title, description, budget, timeline and dates. */
export function DealHeaderSection({ deal, viewer }: DealSectionProps) {
  const navigate = useNavigate();
  return (
    <div className="space-y-4">
      <DocumentTitle title={deal.title} />
      <Button variant="outline" size="sm" onClick={() => navigate('/deals')}>
        <ArrowLeftIcon size={16} />
        Back to Deals
      </Button>
      <Card className="overflow-hidden">
        <div className="border-b border-slate-100 bg-gradient-to-r from-indigo-50 via-white to-sky-50 px-6 py-6 sm:px-8">
          <div className="flex flex-wrap items-center gap-2">
            <DealStatusBadge deal={deal} />
            {viewer.role === 'creator' && <Badge tone="indigo">You created this deal</Badge>}
            {viewer.role === 'counterpart' && <Badge tone="blue">You joined this deal</Badge>}
            {viewer.role === 'dealmaker' && <Badge tone="amber">You are the dealmaker</Badge>}
          </div>
          <h1 className="mt-3 text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">
            {deal.title}
          </h1>
          <p className="mt-3 max-w-3xl text-sm leading-relaxed break-words whitespace-pre-line text-slate-600 sm:text-base">
            {deal.description}
          </p>
        </div>
        <dl className="grid gap-px bg-slate-100 sm:grid-cols-2 lg:grid-cols-4">
          <Fact icon={<WalletIcon size={18} />} label="Budget" value={formatMoney(deal.budget)} strong />
          <Fact icon={<ClockIcon size={18} />} label="Timeline" value={deal.timeline} />
          <Fact icon={<CalendarIcon size={18} />} label="Created" value={formatDateTime(deal.createdAt)} />
          <Fact
            icon={<CalendarIcon size={18} />}
            label="Last Updated"
            value={formatDateTime(deal.updatedAt)}
          />
        </dl>
      </Card>
    </div>
  );
}

function Fact({
  icon,
  label,
  value,
  strong,
}: {
  icon: ReactNode;
  label: string;
  value: string;
  strong?: boolean;
}) {
  return (
    <div className="relative min-h-[4.5rem] bg-white py-4 pr-6 pl-[4.5rem]">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">
        <span className="absolute top-4 left-6 flex h-9 w-9 items-center justify-center rounded-lg bg-slate-100 text-slate-500">
          {icon}
        </span>
        {label}
      </dt>
      <dd className={strong ? 'text-lg font-semibold text-slate-900' : 'text-sm break-words text-slate-900'}>
        {value}
      </dd>
    </div>
  );
}
