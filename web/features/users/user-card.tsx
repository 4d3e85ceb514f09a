import { Link } from 'react-router';
import type { User } from '../../../contract/users';
import { Avatar } from '../../components/ui/avatar';
import { Badge } from '../../components/ui/badge';
import { buttonClasses } from '../../components/ui/button';
import { CalendarIcon, MailIcon } from '../../components/ui/icons';
import { formatDate } from '../../lib/time';

/** A member in the directory: picture, name, username, email, join date and a link to the profile. */
export function UserCard({ user, isMe }: { user: User; isMe: boolean }) {
  const name = user.full_name || user.username;
  return (
    <li className="flex min-w-0 flex-col rounded-2xl border border-slate-200/80 bg-white p-5 shadow-sm transition hover:shadow-md">
      <div className="flex items-start gap-4">
        <Avatar src={user.profile.profile_picture} name={name} size="md" />
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-2">
            <h2 className="truncate font-semibold text-slate-900">{name}</h2>
            {isMe && <Badge tone="indigo">You</Badge>}
          </div>
          <p className="truncate text-sm text-slate-500">@{user.username}</p>
        </div>
      </div>
      <div className="mt-4 flex-1 space-y-1.5 text-sm text-slate-600">
        {user.email && (
          <p className="flex items-center gap-2 truncate">
            <MailIcon size={16} className="shrink-0 text-slate-500" />
            <span className="truncate">{user.email}</span>
          </p>
        )}
        <p className="flex items-center gap-2">
          <CalendarIcon size={16} className="shrink-0 text-slate-500" />
          Joined {formatDate(user.createdAt)}
        </p>
      </div>
      <Link
        to={`/users/${encodeURIComponent(user.username)}`}
        className={buttonClasses({ variant: 'outline', size: 'sm', className: 'mt-5 w-full' })}
      >
        View Profile
      </Link>
    </li>
  );
}
