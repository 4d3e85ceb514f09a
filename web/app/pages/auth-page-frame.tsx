import type { ReactNode } from 'react';
import { Card, CardContent } from '../../components/ui/card';
import { LogoIcon } from '../../components/ui/icons';
import { DocumentTitle } from '../../components/ui/page-header';

/** The centered card the login, register, verification and reset pages sit in. */
export function AuthPageFrame({
  title,
  subtitle,
  footer,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-1 items-start justify-center bg-gradient-to-b from-indigo-50/70 to-slate-50 px-4 py-12 sm:items-center sm:py-16">
      <DocumentTitle title={title} />
      <div className="w-full max-w-md">
        <div className="mb-8 flex flex-col items-center text-center">
          <span className="mb-4 flex h-12 w-12 items-center justify-center rounded-2xl bg-indigo-600 text-white shadow-lg shadow-indigo-600/30">
            <LogoIcon size={26} />
          </span>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          {subtitle && <p className="mt-2 text-sm text-slate-500">{subtitle}</p>}
        </div>
        <Card>
          <CardContent className="p-6 sm:p-8">{children}</CardContent>
        </Card>
        {footer && <div className="mt-6 text-center text-sm text-slate-500">{footer}</div>}
      </div>
    </div>
  );
}
