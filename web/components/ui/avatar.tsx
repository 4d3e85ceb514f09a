import { useState } from 'react';
import { cn } from '../../lib/cn';

const sizes = {
  xs: 'h-7 w-7 text-[11px]',
  sm: 'h-9 w-9 text-xs',
  md: 'h-12 w-12 text-sm',
  lg: 'h-20 w-20 text-2xl',
  xl: 'h-32 w-32 text-4xl',
};

// Calm background colors; a user keeps the same one everywhere.
const palette = [
  'bg-indigo-100 text-indigo-700',
  'bg-sky-100 text-sky-700',
  'bg-emerald-100 text-emerald-700',
  'bg-amber-100 text-amber-800',
  'bg-rose-100 text-rose-700',
  'bg-violet-100 text-violet-700',
  'bg-teal-100 text-teal-700',
];

/** 'Ada Lovelace' → 'AL', 'grace' → 'G'. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0]!.charAt(0);
  const last = words.length > 1 ? words[words.length - 1]!.charAt(0) : '';
  return (first + last).toUpperCase();
}

function colorOf(key: string): string {
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return palette[Math.abs(hash) % palette.length]!;
}

type AvatarProps = {
  /** The picture's address (a server-relative path such as /uploads/profile-pictures/x.webp), if any. */
  src?: string | null;
  /** Whose picture it is: the image's alt text, and the initials when there is no picture. */
  name: string;
  size?: keyof typeof sizes;
  className?: string;
};

/** A user's profile picture, or their initials when there is none (or it fails to load). */
export function Avatar({ src, name, size = 'md', className }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const classes = cn(
    'inline-flex shrink-0 select-none items-center justify-center overflow-hidden rounded-full ring-2 ring-white',
    sizes[size],
    className,
  );
  if (src && failedSrc !== src) {
    return (
      <img
        src={src}
        alt={name}
        className={cn(classes, 'bg-slate-100 object-cover')}
        onError={() => setFailedSrc(src)}
      />
    );
  }
  return (
    <span role="img" aria-label={name} className={cn(classes, 'font-semibold', colorOf(name))}>
      {initialsOf(name)}
    </span>
  );
}
