/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.distlock.engine;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.LockAcquisitionException;
import io.distlock.LockBackendException;
import io.distlock.LockBusyCallback;
import io.distlock.LockCallback;
import io.distlock.LockHandle;
import io.distlock.LockRequest;

/**
 * The release policy of {@code LockTemplate.executeAsync}: the lock is held until the
 * stage that the code returns completes (normally, exceptionally or by cancellation),
 * then released.
 *
 * <p>
 * The lease is renewed {@link io.distlock.lease.LeaseRenewer#registerDetached detached}
 * from the calling thread, which returns long before the work ends. The release runs on
 * the thread that completes the stage, before the stage returned to the caller completes,
 * so a caller that sees the result finds the lock free. As in the synchronous policy, a
 * failure to release is added as suppressed to the work's failure, or logged after work
 * that succeeded. Failures to lock (busy, Redis unreachable, interrupted while waiting)
 * are answered with a failed stage, never thrown; what the code itself throws before
 * returning its stage is rethrown, after the release.
 * <p>
 * A call on a thread that holds the same lock already (bound by an outer call on the same
 * store and key prefix, as the template finds it) re-enters it, as the synchronous policy
 * does: the outer call holds and releases the lock, so it covers the nested work only if
 * the outer call waits for, or returns, the nested stage.
 */
final class AsyncReleasePolicy {

	private static final Log logger = LogFactory.getLog("io.distlock.LockTemplate");

	private final DetachedAcquirer acquirer;

	AsyncReleasePolicy(DetachedAcquirer acquirer) {
		this.acquirer = acquirer;
	}

	/**
	 * Run the work under the lock, or re-enter the given lock.
	 * @param request what to lock and how
	 * @param held the same lock, bound to the thread by an outer call, to re-enter; or
	 * {@code null} to take it
	 * @param action starts the work
	 * @param whenBusy answers for a lock that stayed busy
	 * @return a stage completed with the work's outcome after the lock was released
	 */
	<T extends @Nullable Object, E extends Throwable> CompletableFuture<T> execute(LockRequest request,
			@Nullable LockHandle held, LockCallback<? extends @Nullable CompletionStage<T>, E> action,
			LockBusyCallback<? extends @Nullable CompletionStage<T>, E> whenBusy) throws E {
		if (held != null) {
			try {
				Reentry.assertReenterable(held, request);
			}
			catch (LockAcquisitionException ex) {
				return CompletableFuture.failedFuture(ex);
			}
			// Re-entered: the outer call holds the lock and releases it.
			return toFuture(BoundLocks.runBound(held, action));
		}
		long start = System.nanoTime();
		AcquisitionPipeline.Acquisition acquisition;
		try {
			acquisition = this.acquirer.acquire(request, start);
		}
		catch (LockBackendException | LockAcquisitionException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		LockHandle handle = acquisition.handle();
		if (handle == null) {
			return toFuture(whenBusy.whenBusy(acquisition.busy(request)));
		}
		CompletionStage<T> stage;
		try {
			stage = BoundLocks.runBound(handle, action);
		}
		catch (Throwable ex) {
			releaseAfterFailure(handle, ex);
			throw ex;
		}
		if (stage == null) {
			releaseAfterSuccess(handle, request);
			return CompletableFuture.completedFuture(null);
		}
		return releaseWhenComplete(stage, handle, request);
	}

	private <T extends @Nullable Object> CompletableFuture<T> releaseWhenComplete(CompletionStage<T> stage,
			LockHandle handle, LockRequest request) {
		CompletableFuture<T> result = new CompletableFuture<>();
		stage.whenComplete((value, failure) -> {
			if (failure == null) {
				releaseAfterSuccess(handle, request);
				result.complete(value);
			}
			else {
				if (failure instanceof CancellationException && handle instanceof DefaultLockHandle own) {
					// Cancelling a future does not stop the thread that runs its task:
					// the work may go on, so it hears that the lock ends under it.
					own.releasedUnderWork("because its async work's stage was cancelled");
				}
				releaseAfterFailure(handle, failure);
				result.completeExceptionally(failure);
			}
		});
		// Cancelling the caller's stage cancels the work's own, whose completion then
		// releases the lock.
		result.whenComplete((value, failure) -> {
			if (failure instanceof CancellationException) {
				cancel(stage, request);
			}
		});
		return result;
	}

	private static void cancel(CompletionStage<?> stage, LockRequest request) {
		try {
			stage.toCompletableFuture().cancel(true);
		}
		catch (UnsupportedOperationException ex) {
			if (logger.isDebugEnabled()) {
				logger.debug("Could not cancel the work under lock '" + request.key()
						+ "': its stage cannot be cancelled; the lock is released when it completes");
			}
		}
	}

	private static void releaseAfterSuccess(LockHandle handle, LockRequest request) {
		try {
			handle.close();
		}
		catch (RuntimeException ex) {
			// The work is done: failing now would invite the caller to run it again.
			logger.warn("Could not release lock '" + request.key() + "' after its async work completed; it "
					+ "expires after its ttl of " + request.ttl().toMillis() + "ms", ex);
		}
	}

	private static void releaseAfterFailure(LockHandle handle, Throwable failure) {
		try {
			handle.close();
		}
		catch (RuntimeException releaseFailure) {
			failure.addSuppressed(releaseFailure);
		}
	}

	@SuppressWarnings("unchecked")
	private static <T extends @Nullable Object> CompletableFuture<T> toFuture(
			@Nullable CompletionStage<? extends T> stage) {
		if (stage == null) {
			return CompletableFuture.completedFuture(null);
		}
		if (stage instanceof CompletableFuture<? extends T> future) {
			return (CompletableFuture<T>) future;
		}
		CompletableFuture<T> result = new CompletableFuture<>();
		stage.whenComplete((value, failure) -> {
			if (failure == null) {
				result.complete(value);
			}
			else {
				result.completeExceptionally(failure);
			}
		});
		return result;
	}

	/**
	 * Takes a lock whose lease is renewed detached from the calling thread.
	 */
	@FunctionalInterface
	interface DetachedAcquirer {

		/**
		 * Acquire the lock described by the request.
		 * @param request what to lock and how
		 * @param start when the caller started, from {@link System#nanoTime()}
		 * @return the held lock, or how its last attempt was answered
		 */
		AcquisitionPipeline.Acquisition acquire(LockRequest request, long start);

	}

}
