import type { ProgressItem, ProgressStatus } from '../../../contract/progress';
import type { ProgressItemView } from './progress.repository';

export function presentProgressItem(view: ProgressItemView): ProgressItem {
  const { item } = view;
  return {
    id: item.id,
    dealId: item.dealId,
    position: item.position,
    title: item.title,
    description: item.description,
    status: item.status as ProgressStatus,
    createdAt: item.createdAt.toISOString(),
    updatedAt: item.updatedAt.toISOString(),
    completedAt: item.completedAt?.toISOString() ?? null,
    completedByUsername: view.completerUsername,
    completedByUser: view.completerFullName ? { full_name: view.completerFullName } : null,
  };
}
