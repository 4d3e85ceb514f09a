import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';
import { cn } from '../../lib/cn';

export type TabItem<Value extends string> = {
  value: Value;
  label: ReactNode;
  /** The tab's panel. */
  content: ReactNode;
};

type TabsProps<Value extends string> = {
  tabs: TabItem<Value>[];
  value: Value;
  onValueChange: (value: Value) => void;
  /** Names the tab list for assistive technology. */
  label: string;
  /** 'underline' for page sections, 'pills' for compact switches (e.g. inside a dialog). */
  variant?: 'underline' | 'pills';
  className?: string;
  listClassName?: string;
};

/** Accessible tabs (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs. */
export function Tabs<Value extends string>({
  tabs,
  value,
  onValueChange,
  label,
  variant = 'underline',
  className,
  listClassName,
}: TabsProps<Value>) {
  const baseId = useId();
  const tabRefs = useRef(new Map<Value, HTMLButtonElement>());
  const tabId = (tab: Value) => `${baseId}-tab-${tab}`;
  const panelId = (tab: Value) => `${baseId}-panel-${tab}`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.value === value);
    const last = tabs.length - 1;
    const next = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = tabs[next]!.value;
    onValueChange(target);
    tabRefs.current.get(target)?.focus();
  };

  const active = tabs.find((tab) => tab.value === value) ?? tabs[0];

  return (
    <div className={className}>
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className={cn(
          variant === 'underline'
            ? 'flex gap-1 overflow-x-auto border-b border-slate-200'
            : 'grid auto-cols-fr grid-flow-col gap-1 rounded-xl bg-slate-100 p-1',
          listClassName,
        )}
      >
        {tabs.map((tab) => {
          const selected = tab.value === active?.value;
          return (
            <button
              key={tab.value}
              ref={(element) => {
                if (element) tabRefs.current.set(tab.value, element);
                else tabRefs.current.delete(tab.value);
              }}
              type="button"
              role="tab"
              id={tabId(tab.value)}
              aria-selected={selected}
              aria-controls={panelId(tab.value)}
              tabIndex={selected ? 0 : -1}
              onClick={() => onValueChange(tab.value)}
              className={cn(
                'inline-flex cursor-pointer items-center justify-center gap-2 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-indigo-500',
                variant === 'underline'
                  ? cn(
                      '-mb-px border-b-2 px-4 py-3',
                      selected
                        ? 'border-indigo-600 text-indigo-700'
                        : 'border-transparent text-slate-500 hover:border-slate-300 hover:text-slate-700',
                    )
                  : cn(
                      'rounded-lg px-3 py-2.5',
                      selected ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-700 hover:text-slate-900',
                    ),
              )}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {active && (
        <div
          role="tabpanel"
          id={panelId(active.value)}
          aria-labelledby={tabId(active.value)}
          className="focus-visible:outline-none"
        >
          {active.content}
        </div>
      )}
    </div>
  );
}
