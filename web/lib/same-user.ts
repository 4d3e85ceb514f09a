/** Usernames are unique case-insensitively (DESIGN.md §5), so they compare that way everywhere. */
export const sameUser = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase();
