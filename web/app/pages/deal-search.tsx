import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { limits } from '../../../contract/limits';
import { Button } from '../../components/ui/button';
import { SearchField } from '../../components/ui/search-field';

/**
 * The Deals page's keyword. It lives in the address (?q=), so Back returns to the same results; the
 * box holds the draft until Search.
 */
export function useDealSearch() {
  const [searchParams, setSearchParams] = useSearchParams();
  const keyword = (searchParams.get('q') ?? '').trim();
  const [draft, setDraft] = useState(keyword);
  // Following a link to /deals (or Back) changes the keyword: the box shows it.
  useEffect(() => setDraft(keyword), [keyword]);

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = draft.trim();
    setSearchParams(next ? { q: next } : {}, { replace: true });
  };

  return { keyword, draft, setDraft, search };
}

/** The keyword box and its Search button. */
export function DealSearchForm({ search }: { search: ReturnType<typeof useDealSearch> }) {
  return (
    <form onSubmit={search.search} className="mb-8 flex max-w-2xl gap-3">
      <SearchField
        id="deal-search"
        label="Search deals"
        wrapperClassName="flex-1"
        className="h-11 pr-4"
        value={search.draft}
        maxLength={limits.searchQuery.max}
        onChange={(event) => search.setDraft(event.target.value)}
        placeholder="Search deals by keyword..."
      />
      <Button type="submit" className="h-11">
        Search
      </Button>
    </form>
  );
}
