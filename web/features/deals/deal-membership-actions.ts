import { dealTexts, failure, type ShowFlash, success } from './deal-flash';
import { useDeleteDeal, useLeaveDeal } from './deals-api';

/*
 * Leave and Delete as the Deals page and My Deals offer them: the outcome goes to the flash strip
 * through the hooks' own callbacks, so it shows even when the deal's card is gone by then.
 */

export const useLeaveDealWithFlash = (onFlash: ShowFlash) =>
  useLeaveDeal({
    onSuccess: () => onFlash(success(dealTexts.left)),
    onError: (error) => onFlash(failure(dealTexts.leaveFailed, error)),
  });

export const useDeleteDealWithFlash = (onFlash: ShowFlash) =>
  useDeleteDeal({
    onSuccess: () => onFlash(success(dealTexts.deleted)),
    onError: (error) => onFlash(failure(dealTexts.deleteFailed, error)),
  });
