import { Suspense, useEffect, useId, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { Avatar } from '../components/ui/avatar';
import { Button } from '../components/ui/button';
import { CloseIcon, LogOutIcon, LogoIcon, MenuIcon } from '../components/ui/icons';
import { type CurrentUser, useAuth, useAuthDialog, useOperator } from '../features/auth';
import { cn } from '../lib/cn';
import { lazyAfterFirstPage } from '../lib/first-page-shown';
import { type NavLinkItem, operatorNavLink, signedInNavLinks, signedOutNavLinks } from './nav-links';

// Only signed-in users have a bell: its code (and the notification kinds it knows) loads once the first
// signed-in page is shown, not with the landing page of a visitor (its place is kept meanwhile).
const bellPlace = <span className="h-10 w-10 shrink-0" />;
const NotificationBell = lazyAfterFirstPage(
  () => import('../features/notifications').then((module) => ({ default: module.NotificationBell })),
  bellPlace,
);

export function NavBar() {
  const { user, isAuthenticated, logout: signOut } = useAuth();
  const { openAuthDialog } = useAuthDialog();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useMobileMenu();
  const menuId = useId();
  const { isOperator } = useOperator();
  const signedIn = isOperator ? [...signedInNavLinks, operatorNavLink] : signedInNavLinks;
  const links = isAuthenticated ? signedIn : signedOutNavLinks;

  const logout = async () => {
    setMenuOpen(false);
    // Ends the session on the server first (while the token still signs the call), then here.
    await signOut();
    navigate('/');
  };

  const login = () => {
    setMenuOpen(false);
    openAuthDialog('login');
  };

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 xl:px-8">
        <Link
          to="/"
          className="flex shrink-0 items-center gap-2 rounded-lg focus-visible:outline-2 focus-visible:outline-indigo-500"
        >
          <span className="flex h-9 w-9 items-center justify-center rounded-xl bg-indigo-600 text-white shadow-md shadow-indigo-600/25">
            <LogoIcon size={20} />
          </span>
          <span className="text-lg font-bold tracking-tight text-slate-900">Dealmaker</span>
        </Link>

        <NavLinks
          label="Main"
          links={links}
          className="hidden flex-1 items-center gap-0.5 lg:flex"
          linkClassName={(isActive) =>
            cn(
              'rounded-lg px-2 py-2 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-indigo-500 xl:px-3',
              isActive
                ? 'bg-indigo-50 text-indigo-700'
                : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
            )
          }
        />

        <div className="ml-auto flex items-center gap-1 lg:gap-2 xl:gap-3">
          {isAuthenticated && user && (
            <Suspense fallback={bellPlace}>
              <NotificationBell />
            </Suspense>
          )}
          <div className="hidden items-center gap-2.5 lg:flex xl:gap-3">
            {isAuthenticated && user ? (
              <>
                <Greeting
                  user={user}
                  // The bell and, for operators, the Operator link take room from the greeting below xl.
                  className={`${isOperator ? 'max-w-12' : 'max-w-28'} truncate text-sm text-slate-600 xl:max-w-52`}
                />
                <Button variant="outline" size="sm" onClick={logout}>
                  <LogOutIcon size={16} className="hidden xl:block" />
                  Logout
                </Button>
              </>
            ) : (
              <Button size="sm" onClick={login}>
                Login / Register
              </Button>
            )}
          </div>

          <button
            type="button"
            className="inline-flex h-10 w-10 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 lg:hidden"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <CloseIcon size={22} /> : <MenuIcon size={22} />}
          </button>
        </div>
      </div>

      {menuOpen && (
        <div id={menuId} className="border-t border-slate-200 bg-white px-4 pt-3 pb-5 shadow-lg lg:hidden">
          {isAuthenticated && user && (
            <div className="mb-3 flex items-center gap-3 rounded-xl bg-slate-50 px-3 py-3">
              <Greeting user={user} className="truncate text-sm text-slate-600" />
            </div>
          )}
          <NavLinks
            label="Mobile"
            links={links}
            className="flex flex-col gap-1"
            linkClassName={(isActive) =>
              cn(
                'rounded-lg px-3 py-2.5 text-base font-medium',
                isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700 hover:bg-slate-100',
              )
            }
          />
          <div className="mt-4 border-t border-slate-100 pt-4">
            {isAuthenticated ? (
              <Button variant="outline" className="w-full" onClick={logout}>
                <LogOutIcon size={16} />
                Logout
              </Button>
            ) : (
              <Button className="w-full" onClick={login}>
                Login / Register
              </Button>
            )}
          </div>
        </div>
      )}
    </header>
  );
}

/** The mobile menu's open state: it closes once a link has been followed, and on Escape. */
function useMobileMenu() {
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation on purpose
  useEffect(() => setMenuOpen(false), [location.pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);

  return [menuOpen, setMenuOpen] as const;
}

type NavLinksProps = {
  label: string;
  links: NavLinkItem[];
  className: string;
  linkClassName: (isActive: boolean) => string;
};

/** The app's links (the bar's and the mobile menu's), the current page's highlighted. */
function NavLinks({ label, links, className, linkClassName }: NavLinksProps) {
  return (
    <nav aria-label={label} className={className}>
      {links.map((link) => (
        <NavLink
          key={link.to}
          to={link.to}
          end={link.to === '/'}
          className={({ isActive }) => linkClassName(isActive)}
        >
          {link.label}
        </NavLink>
      ))}
    </nav>
  );
}

/** The signed-in user's picture and 'Welcome, {username}'. */
function Greeting({ user, className }: { user: CurrentUser; className: string }) {
  return (
    <>
      <Avatar src={user.profile?.profile_picture} name={user.full_name || user.username} size="sm" />
      <span className={className}>
        Welcome, <span className="font-semibold text-slate-900">{user.username}</span>
      </span>
    </>
  );
}
