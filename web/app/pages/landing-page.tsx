import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button';
import {
  ArrowRightIcon,
  BriefcaseIcon,
  ChartIcon,
  ChatIcon,
  HandshakeIcon,
  ShieldIcon,
  UserIcon,
  UsersIcon,
  WalletIcon,
} from '../../components/ui/icons';
import { DocumentTitle } from '../../components/ui/page-header';
import { useAuth } from '../../features/auth/auth-context';
import { useAuthDialog } from '../../features/auth/auth-dialog-context';

const features = [
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
    text: 'Funds stay locked in escrow until both dealers mark the deal finished, while milestones show how far it has come.',
  },
];

const steps = [
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
    text: 'Follow the milestones, settle disputes, mark the deal finished and leave reviews for each other.',
  },
];

const guide = [
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

export function LandingPage() {
  const { isAuthenticated } = useAuth();
  const { openAuthDialog } = useAuthDialog();
  const navigate = useNavigate();

  /** Signed in, go there; signed out, sign in first. */
  const goOrSignIn = (path: string) => (isAuthenticated ? navigate(path) : openAuthDialog('login'));

  return (
    <div className="flex flex-col">
      <DocumentTitle />

      {/* Hero */}
      <section className="relative overflow-hidden bg-gradient-to-b from-indigo-50 via-white to-slate-50">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-32 left-1/2 h-[480px] w-[880px] -translate-x-1/2 rounded-full bg-gradient-to-tr from-indigo-200/60 via-violet-200/40 to-sky-200/50 blur-3xl"
        />
        <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.15fr_1fr] lg:px-8">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full border border-indigo-200 bg-white/80 px-3 py-1 text-xs font-semibold text-indigo-700 shadow-sm">
              <ShieldIcon size={14} />
              Deals with escrow built in
            </p>
            <h1 className="mt-5 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl lg:text-6xl">
              Close better deals, <span className="text-indigo-600">together.</span>
            </h1>
            <p className="mt-5 max-w-xl text-lg leading-relaxed text-slate-600">
              Dealmaker brings dealers and dealmakers to one table: create a deal, pick the right dealmaker,
              lock the budget in escrow and track every milestone, with live chat for everyone involved.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button size="lg" onClick={() => goOrSignIn('/deals')}>
                Browse Deals
                <ArrowRightIcon size={18} />
              </Button>
              <Button size="lg" variant="outline" onClick={() => goOrSignIn('/dealmaker-panel')}>
                Become a Dealmaker
              </Button>
            </div>
          </div>
          <HeroFlow />
        </div>
      </section>

      {/* Features */}
      <Section
        id="features"
        eyebrow="Features"
        title="Everything a deal needs"
        intro="From the first idea to the final payment, every step happens in one place."
      >
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {features.map((feature) => (
            <article
              key={feature.title}
              className="group rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md"
            >
              <div className="mb-4 flex h-12 w-12 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600 transition group-hover:bg-indigo-600 group-hover:text-white">
                {feature.icon}
              </div>
              <h3 className="text-base font-semibold text-slate-900">{feature.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-500">{feature.text}</p>
            </article>
          ))}
        </div>
      </Section>

      {/* How it works */}
      <Section
        id="how-it-works"
        eyebrow="How it works"
        title="Four steps from idea to done"
        intro="Every deal follows the same clear path, so everyone always knows what comes next."
        className="bg-white"
      >
        <ol className="grid gap-6 md:grid-cols-2 lg:grid-cols-4">
          {steps.map((step, index) => (
            <li key={step.title} className="relative rounded-2xl border border-slate-200 bg-slate-50/60 p-6">
              <span className="flex h-10 w-10 items-center justify-center rounded-full bg-indigo-600 text-sm font-bold text-white shadow-md shadow-indigo-600/30">
                {index + 1}
              </span>
              <h3 className="mt-4 text-base font-semibold text-slate-900">{step.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-500">{step.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      {/* Call to action */}
      <section className="px-4 py-16 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-5xl overflow-hidden rounded-3xl bg-gradient-to-br from-indigo-600 via-indigo-600 to-violet-600 px-6 py-14 text-center shadow-xl shadow-indigo-600/20 sm:px-12">
          <h2 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
            Ready to make your next deal?
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-indigo-100">
            Create an account in a minute, add money to your wallet and start working with dealers and
            dealmakers you can count on.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Button
              size="lg"
              variant="inverse"
              onClick={() => (isAuthenticated ? navigate('/deals') : openAuthDialog('register'))}
            >
              Get Started Today
            </Button>
            <Link to="/about" className={buttonClasses({ size: 'lg', variant: 'inverse-outline' })}>
              Learn More
            </Link>
          </div>
        </div>
      </section>

      {/* Navigation guide */}
      <Section
        id="guide"
        eyebrow="Navigation guide"
        title="Find your way around"
        intro={
          isAuthenticated
            ? 'The navigation bar takes you to each part of Dealmaker.'
            : 'Sign in to reach these parts of Dealmaker from the navigation bar.'
        }
        className="bg-white"
      >
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {guide.map((item) => (
            <li key={item.to} className="flex flex-col rounded-2xl border border-slate-200 p-5">
              <div className="flex items-center gap-3">
                <span className="flex h-9 w-9 items-center justify-center rounded-lg bg-slate-100 text-slate-600">
                  {item.icon}
                </span>
                <h3 className="font-semibold text-slate-900">{item.title}</h3>
              </div>
              <p className="mt-3 flex-1 text-sm leading-relaxed text-slate-500">{item.text}</p>
              <button
                type="button"
                onClick={() => goOrSignIn(item.to)}
                className="mt-4 inline-flex cursor-pointer items-center gap-1 self-start text-sm font-medium text-indigo-600 hover:text-indigo-700"
              >
                Open {item.title.toLowerCase()}
                <ArrowRightIcon size={16} />
              </button>
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}

function Section({
  id,
  eyebrow,
  title,
  intro,
  className,
  children,
}: {
  id: string;
  eyebrow: string;
  title: string;
  intro: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className={className}>
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
        <div className="mx-auto mb-12 max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">{eyebrow}</p>
          <h2
            id={`${id}-title`}
            className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            {title}
          </h2>
          <p className="mt-4 text-slate-500">{intro}</p>
        </div>
        {children}
      </div>
    </section>
  );
}

/** The deal flow as a picture: who does what, in order. */
function HeroFlow() {
  const rows = [
    { icon: <BriefcaseIcon size={20} />, title: 'Deal created', text: 'Budget and timeline set' },
    { icon: <HandshakeIcon size={20} />, title: 'Dealmaker chosen', text: 'Both dealers agree' },
    { icon: <ShieldIcon size={20} />, title: 'Escrow locked', text: 'Each dealer pays half' },
    { icon: <ChartIcon size={20} />, title: 'Milestones tracked', text: 'Until both mark it finished' },
  ];
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md">
      <div className="absolute inset-0 translate-x-3 translate-y-3 rounded-3xl bg-indigo-600/10" />
      <div className="relative rounded-3xl border border-slate-200 bg-white p-6 shadow-xl shadow-slate-300/40">
        <p className="text-xs font-semibold tracking-wide text-slate-400 uppercase">The life of a deal</p>
        <ol className="mt-5 space-y-5">
          {rows.map((row, index) => (
            <li key={row.title} className="flex items-center gap-4">
              <span className="relative flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
                {row.icon}
                {index < rows.length - 1 && (
                  <span className="absolute top-full left-1/2 h-5 w-px -translate-x-1/2 bg-indigo-200" />
                )}
              </span>
              <span>
                <span className="block text-sm font-semibold text-slate-900">{row.title}</span>
                <span className="block text-sm text-slate-500">{row.text}</span>
              </span>
            </li>
          ))}
        </ol>
        <div className="mt-6 flex items-center gap-2 rounded-xl bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-700">
          <ShieldIcon size={18} />
          Payment released to the dealmaker on completion
        </div>
      </div>
    </div>
  );
}
