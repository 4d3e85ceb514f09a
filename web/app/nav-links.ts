/** The navigation bar's links (spec §2 Navigation bar), in order. */
export type NavLinkItem = { to: string; label: string };

export const signedInNavLinks: NavLinkItem[] = [
  { to: '/', label: 'Home' },
  { to: '/deals', label: 'Deals' },
  { to: '/bids', label: 'My Bids' },
  { to: '/dealmaker-panel', label: 'Dealmaker-Panel' },
  { to: '/deposit', label: 'Deposit' },
  { to: '/users', label: 'Users' },
  { to: '/profile', label: 'Profile' },
  { to: '/about', label: 'About' },
];

export const signedOutNavLinks: NavLinkItem[] = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About' },
];

/** After the signed-in links, for operators only. */
export const operatorNavLink: NavLinkItem = { to: '/operator', label: 'Operator' };
