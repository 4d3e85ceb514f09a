import {
  BriefcaseIcon,
  ChartIcon,
  ChatIcon,
  HandshakeIcon,
  ShieldIcon,
  UserIcon,
  UsersIcon,
  WalletIcon,
} from '../../components/ui/icons';

/* The landing page's cards and lists (spec §2 Landing page): marketing text, kept apart from its layout. */

/** The four feature cards. */
export const features = [
  {
    icon: <BriefcaseIcon size={24} />,
    title: 'Create Deals',
    text: 'Post a deal with its budget and timeline, let a counterpart join, and run it from a single page.',
  },
  {
    icon: <HandshakeIcon size={24} />,
    title: 'Find Dealmakers',
    text: 'Collect bids from independent dealmakers or request one directly. Both dealers choose together.',
  },
  {
    icon: <ChatIcon size={24} />,
    title: 'Real-Time Chat',
    text: 'Talk with everyone on the deal as it happens, with live updates and typing indicators.',
  },
  {
    icon: <ShieldIcon size={24} />,
    title: 'Escrow & Progress Tracking',
    text: 'Funds stay locked in escrow until both dealers mark the deal finished, while progress steps show how far it has come.',
  },
];

/** How it works, in four steps. */
export const steps = [
  {
    title: 'Create or join a deal',
    text: 'Describe what you want to achieve, set a budget and a timeline, or join a deal another dealer posted.',
  },
  {
    title: 'Choose a dealmaker',
    text: 'Compare the bids you receive or send a request to a dealmaker you trust. The deal is set once both dealers agree.',
  },
  {
    title: 'Fund the escrow',
    text: 'Each dealer pays half of the budget from their wallet. The money stays locked until the work is done.',
  },
  {
    title: 'Track and complete',
    text: 'Follow the progress steps, settle disputes, mark the deal finished and leave reviews for each other.',
  },
];

/** The navigation guide: where each part of the app is. */
export const guide = [
  {
    to: '/deals',
    icon: <BriefcaseIcon size={20} />,
    title: 'Deals',
    text: 'Browse open deals, create your own, join one as a dealer or bid on it as a dealmaker.',
  },
  {
    to: '/dealmaker-panel',
    icon: <HandshakeIcon size={20} />,
    title: 'Dealmaker Panel',
    text: 'See the deals you are the dealmaker of and answer the requests dealers send you.',
  },
  {
    to: '/deposit',
    icon: <WalletIcon size={20} />,
    title: 'Deposit',
    text: 'Add money to your wallet, check your balance and review every transaction.',
  },
  {
    to: '/users',
    icon: <UsersIcon size={20} />,
    title: 'Users',
    text: 'Find other members, look at their profiles, their deals and the reviews they received.',
  },
  {
    to: '/profile',
    icon: <UserIcon size={20} />,
    title: 'Profile',
    text: 'Keep your details and your profile picture up to date, or change your password.',
  },
];

/** The life of a deal, as the hero picture shows it. */
export const heroRows = [
  { icon: <BriefcaseIcon size={20} />, title: 'Deal created', text: 'Budget and timeline set' },
  { icon: <HandshakeIcon size={20} />, title: 'Dealmaker chosen', text: 'Both dealers agree' },
  { icon: <ShieldIcon size={20} />, title: 'Escrow locked', text: 'Each dealer pays half' },
  { icon: <ChartIcon size={20} />, title: 'Progress steps tracked', text: 'Until both mark it finished' },
];
