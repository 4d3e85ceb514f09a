import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button';
import { ArrowRightIcon, ShieldIcon } from '../../components/ui/icons';
import { heroRows } from './landing-content';

/** A landing page section: eyebrow, heading and intro over its content. */
export function Section({
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
export function HeroFlow() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md">
      <div className="absolute inset-0 translate-x-3 translate-y-3 rounded-3xl bg-indigo-600/10" />
      <div className="relative rounded-3xl border border-slate-200 bg-white p-6 shadow-xl shadow-slate-300/40">
        <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">The life of a deal</p>
        <ol className="mt-5 space-y-5">
          {heroRows.map((row, index) => (
            <li key={row.title} className="flex items-center gap-4">
              <span className="relative flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
                {row.icon}
                {index < heroRows.length - 1 && (
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

/** The pitch, Browse Deals and Become a Dealmaker (signed out, they open the sign-in dialog first). */
export function LandingHero({ goOrSignIn }: { goOrSignIn: (path: string) => void }) {
  return (
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
            lock the budget in escrow and track every progress step, with live chat for everyone involved.
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
  );
}

/** Get Started Today (register, or the deals when signed in) and Learn More (/about). */
export function CallToAction({ onGetStarted }: { onGetStarted: () => void }) {
  return (
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
          <Button size="lg" variant="inverse" onClick={onGetStarted}>
            Get Started Today
          </Button>
          <Link to="/about" className={buttonClasses({ size: 'lg', variant: 'inverse-outline' })}>
            Learn More
          </Link>
        </div>
      </div>
    </section>
  );
}
