import { useNavigate } from 'react-router';
import { ArrowRightIcon } from '../../components/ui/icons';
import { DocumentTitle } from '../../components/ui/page-header';
import { useAuth, useAuthDialog } from '../../features/auth';
import { features, guide, steps } from './landing-content';
import { CallToAction, LandingHero, Section } from './landing-parts';

export function LandingPage() {
  const { isAuthenticated } = useAuth();
  const { openAuthDialog } = useAuthDialog();
  const navigate = useNavigate();

  /** Signed in, go there; signed out, sign in first. */
  const goOrSignIn = (path: string) => (isAuthenticated ? navigate(path) : openAuthDialog('login'));

  return (
    <div className="flex flex-col">
      <DocumentTitle />

      <LandingHero goOrSignIn={goOrSignIn} />

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

      <CallToAction
        onGetStarted={() => (isAuthenticated ? navigate('/deals') : openAuthDialog('register'))}
      />

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
                className="mt-2 inline-flex min-h-10 cursor-pointer items-center gap-1 self-start text-sm font-medium text-indigo-700 hover:text-indigo-800"
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
