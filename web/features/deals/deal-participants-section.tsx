import type { ReactNode } from 'react';
import { Avatar } from '../../components/ui/avatar';
import { Badge } from '../../components/ui/badge';
import { sameUser } from '../../lib/same-user';
import { type DealSectionProps, DetailSection } from './deal-section';
import { UserProfileLink } from './user-profile-link';

/**
 * The deal's people: its creator, its counterpart (joined dealer) and its dealmaker. `children` go
 * under them (the page puts the dealers' completion lines there).
 */
export function DealParticipantsSection({
  deal,
  viewer,
  children,
}: DealSectionProps & { children?: ReactNode }) {
  return (
    <DetailSection title="Participants">
      <dl className="grid gap-4 md:grid-cols-3">
        <Participant label="Deal Creator" username={deal.dealer_creator} viewer={viewer.username} empty="—" />
        <Participant
          label="Deal Counterpart"
          username={deal.dealer_joined}
          viewer={viewer.username}
          empty="Not joined yet"
        />
        <Participant
          label="Deal Maker"
          username={deal.dealmaker}
          viewer={viewer.username}
          empty="Not yet assigned"
        />
      </dl>
      {children}
    </DetailSection>
  );
}

function Participant({
  label,
  username,
  viewer,
  empty,
}: {
  label: string;
  username: string | null;
  viewer: string;
  empty: ReactNode;
}) {
  return (
    <div className="relative rounded-xl border border-slate-200 py-3 pr-4 pl-16">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="flex min-w-0 items-center gap-2 text-sm">
        <span className="absolute top-1/2 left-4 -translate-y-1/2">
          {username ? (
            <Avatar name={username} size="sm" />
          ) : (
            <span
              aria-hidden="true"
              className="block h-9 w-9 rounded-full border-2 border-dashed border-slate-300 bg-slate-50"
            />
          )}
        </span>
        {username ? (
          <>
            <span className="truncate">
              <UserProfileLink username={username} />
            </span>
            {sameUser(username, viewer) && <Badge tone="indigo">You</Badge>}
          </>
        ) : (
          <span className="text-slate-500 italic">{empty}</span>
        )}
      </dd>
    </div>
  );
}
