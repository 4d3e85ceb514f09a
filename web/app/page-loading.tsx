import { LoadingState } from '../components/ui/spinner';

/** The whole window while the first page's code loads (a moment, once per visit). */
export function PageLoading() {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-slate-50">
      <LoadingState label="Loading Dealmaker..." />
    </div>
  );
}
