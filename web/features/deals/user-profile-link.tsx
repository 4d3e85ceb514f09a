import { Link } from 'react-router';

/** '@username', leading to that user's profile page. */
export function UserProfileLink({ username }: { username: string }) {
  return (
    <Link
      to={`/users/${encodeURIComponent(username)}`}
      className="font-medium text-slate-900 hover:text-indigo-700 hover:underline"
    >
      @{username}
    </Link>
  );
}
