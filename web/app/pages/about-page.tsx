import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { ChatIcon, CheckCircleIcon, ShieldIcon, UsersIcon } from '../../components/ui/icons';
import { DocumentTitle } from '../../components/ui/page-header';

const values = [
  {
    icon: <ShieldIcon size={22} />,
    title: 'Trust by design',
    text: 'Money moves only through escrow, every movement is recorded, and no deal can be pulled out from under someone who has already paid.',
  },
  {
    icon: <CheckCircleIcon size={22} />,
    title: 'Clarity at every step',
    text: 'Each deal shows who is involved, what has been paid, what is done and what comes next. Nobody has to guess.',
  },
  {
    icon: <ChatIcon size={22} />,
    title: 'Work together, live',
    text: 'Chat, progress and payments update the moment something changes, so the people on a deal stay in step.',
  },
  {
    icon: <UsersIcon size={22} />,
    title: 'Fair for everyone',
    text: 'Dealers choose their dealmaker together, dealmakers are paid when the work is finished, and reviews go both ways.',
  },
];

const principles = [
  'Every rule of a deal is enforced on the server, not just hidden in the interface.',
  'Money is counted in whole cents with double-entry bookkeeping: it never appears or disappears.',
  'The product runs on a single command and keeps working as the number of users grows.',
  'Everything is tested the way people use it: through the real API and a real browser.',
];

export function AboutPage() {
  return (
    <div className="flex flex-col">
      <DocumentTitle title="About" />
      <section className="bg-gradient-to-b from-indigo-50 to-slate-50">
        <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6 sm:py-24 lg:px-8">
          <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">About us</p>
          <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
            The team behind Dealmaker
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg leading-relaxed text-slate-600">
            We are a small product team of engineers and designers who believe business deals should be simple
            to set up, safe to pay for and pleasant to see through. Dealmaker is the tool we wanted for
            ourselves: one place where dealers, dealmakers and their money meet.
          </p>
        </div>
      </section>

      <section className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6 lg:px-8">
        <h2 className="text-center text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          What we care about
        </h2>
        <div className="mt-10 grid gap-6 sm:grid-cols-2">
          {values.map((value) => (
            <article
              key={value.title}
              className="flex gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
            >
              <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
                {value.icon}
              </span>
              <div>
                <h3 className="font-semibold text-slate-900">{value.title}</h3>
                <p className="mt-1.5 text-sm leading-relaxed text-slate-500">{value.text}</p>
              </div>
            </article>
          ))}
        </div>
      </section>

      <section className="bg-white">
        <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:px-8">
          <div>
            <h2 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">How we build</h2>
            <p className="mt-4 leading-relaxed text-slate-600">
              Dealmaker is written in TypeScript from end to end. The same definitions describe what the
              browser sends and what the server accepts, so the two can never quietly disagree. We keep the
              product small, fast and honest: what you see on the screen is exactly what happened.
            </p>
          </div>
          <ul className="space-y-4">
            {principles.map((principle) => (
              <li
                key={principle}
                className="flex gap-3 rounded-xl bg-slate-50 p-4 text-sm leading-relaxed text-slate-700"
              >
                <CheckCircleIcon size={20} className="mt-0.5 shrink-0 text-emerald-600" />
                {principle}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="mx-auto w-full max-w-4xl px-4 py-16 text-center sm:px-6 lg:px-8">
        <h2 className="text-2xl font-bold tracking-tight text-slate-900">See it for yourself</h2>
        <p className="mt-3 text-slate-500">
          Start from the home page to create your account and your first deal.
        </p>
        <Link to="/" className={buttonClasses({ size: 'lg', className: 'mt-6' })}>
          Back to the home page
        </Link>
      </section>
    </div>
  );
}
