import {
  type DefaultError,
  type MutateOptions,
  type UseMutationOptions,
  useMutation,
} from '@tanstack/react-query';
import { useCallback, useRef } from 'react';

/**
 * What a screen does after a call, on top of the cache updates the api hook makes. Unlike the
 * callbacks passed to `mutate`, these run even when the component that started the call is gone
 * by then (e.g. the card of a deal that was just deleted).
 */
export type MutationCallbacks<TData, TVariables, TError = DefaultError> = {
  onSuccess?: (data: TData, variables: TVariables) => void;
  onError?: (error: TError, variables: TVariables) => void;
};

/**
 * useMutation that runs one call at a time: while a call is under way, further `mutate` calls are
 * ignored. The button showing `isPending` is disabled too, but only after React re-renders; a fast
 * double click can land before that, and must not send the request twice.
 */
export function useGuardedMutation<
  TData = unknown,
  TError = DefaultError,
  TVariables = void,
  TContext = unknown,
>(
  options: UseMutationOptions<TData, TError, TVariables, TContext>,
  callbacks: MutationCallbacks<TData, TVariables, TError> = {},
) {
  const latest = useRef(callbacks);
  latest.current = callbacks;

  const mutation = useMutation<TData, TError, TVariables, TContext>({
    ...options,
    onSuccess: async (data, variables, context, mutationContext) => {
      await options.onSuccess?.(data, variables, context, mutationContext);
      latest.current.onSuccess?.(data, variables);
    },
    onError: async (error, variables, context, mutationContext) => {
      await options.onError?.(error, variables, context, mutationContext);
      latest.current.onError?.(error, variables);
    },
  });

  const running = useRef(false);
  const { mutate: run, reset: clear } = mutation;

  const mutate = useCallback(
    (variables: TVariables, mutateOptions?: MutateOptions<TData, TError, TVariables, TContext>) => {
      if (running.current) return;
      running.current = true;
      run(variables, {
        ...mutateOptions,
        onSettled: (...args) => {
          running.current = false;
          mutateOptions?.onSettled?.(...args);
        },
      });
    },
    [run],
  );

  /** `mutate` as a promise that settles with the call (at once when a call is already under way), for a confirmation to wait on. */
  const mutateSettled = useCallback(
    (variables: TVariables, mutateOptions?: MutateOptions<TData, TError, TVariables, TContext>) =>
      new Promise<void>((resolve) => {
        if (running.current) return resolve();
        mutate(variables, {
          ...mutateOptions,
          onSettled: (...args) => {
            mutateOptions?.onSettled?.(...args);
            resolve();
          },
        });
      }),
    [mutate],
  );

  // A reset forgets the running call (its callbacks never fire), so it releases the guard too.
  const reset = useCallback(() => {
    running.current = false;
    clear();
  }, [clear]);

  return { ...mutation, mutate, mutateSettled, reset };
}
