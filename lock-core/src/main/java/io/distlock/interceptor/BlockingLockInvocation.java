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

package io.distlock.interceptor;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

import io.distlock.LockAcquisitionException;
import io.distlock.LockBusyCallback;
import io.distlock.LockCallback;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.MultiLockCallback;
import io.distlock.MultiLockRequest;
import io.distlock.annotation.LockFailurePolicy;

/**
 * Runs a {@code @DistributedLocked} method that is not reactive under its lock through
 * the {@link LockTemplate}: {@code execute} for a plain method, {@code executeAsync} for
 * one returning a {@code CompletionStage} (held until the stage completes),
 * {@code executeAll} for several {@code keys}. When the lock stays busy the method does
 * not run, and its failure policy throws (a failed stage), skips or calls the fallback.
 *
 * @see ReactiveLockInvocation
 */
final class BlockingLockInvocation {

	private BlockingLockInvocation() {
	}

	static @Nullable Object invoke(LockTemplate template, LockOperation operation, LockRequest request,
			LockInvoker invoker, @Nullable Object[] args, Object target) throws Throwable {
		if (operation.async()) {
			// Held until the returned stage completes; a busy lock fails that stage
			// instead of throwing (THROW), or completes it empty (SKIP).
			// A method may return null for a stage, which executeAsync accepts: NullAway
			// sees a nullable type argument only in JSpecify mode.
			@SuppressWarnings("NullAway")
			LockCallback<@Nullable CompletionStage<@Nullable Object>, Throwable> action = (lock) -> stage(
					invoker.invoke());
			@SuppressWarnings("NullAway")
			LockBusyCallback<@Nullable CompletionStage<@Nullable Object>, Throwable> whenBusy = (busy) -> busyStage(
					operation, busy, args, target);
			return template.executeAsync(request, action, whenBusy);
		}
		// The method may return null, which execute accepts: NullAway sees
		// a nullable type argument only in JSpecify mode.
		@SuppressWarnings("NullAway")
		LockCallback<@Nullable Object, Throwable> proceed = (lock) -> invoker.invoke();
		@SuppressWarnings("NullAway")
		LockBusyCallback<@Nullable Object, Throwable> whenBusy = (busy) -> BlockingLockFailure.handle(operation, busy,
				args, target);
		return template.execute(request, proceed, whenBusy);
	}

	static @Nullable Object invokeAll(LockTemplate template, LockOperation operation, MultiLockRequest request,
			LockInvoker invoker, @Nullable Object[] args, Object target) throws Throwable {
		// The method may return null, which executeAll accepts: NullAway sees a nullable
		// type argument only in JSpecify mode.
		@SuppressWarnings("NullAway")
		MultiLockCallback<@Nullable Object, Throwable> proceed = (locks) -> invoker.invoke();
		@SuppressWarnings("NullAway")
		LockBusyCallback<@Nullable Object, Throwable> whenBusy = (busy) -> BlockingLockFailure.handle(operation, busy,
				args, target);
		return template.executeAll(request, proceed, whenBusy);
	}

	// A busy lock fails the stage (THROW), or completes it as the failure policy says.
	private static @Nullable CompletionStage<@Nullable Object> busyStage(LockOperation operation,
			LockAcquisitionException busy, @Nullable Object[] args, Object target) throws Throwable {
		return (operation.onFailure() == LockFailurePolicy.THROW)
				? CompletableFuture.failedFuture(BusyMethodMessage.of(operation, busy))
				: stage(BlockingLockFailure.handle(operation, busy, args, target));
	}

	@SuppressWarnings("unchecked")
	private static @Nullable CompletionStage<@Nullable Object> stage(@Nullable Object returned) {
		// The operation is async only for methods declared to return a CompletionStage.
		return (CompletionStage<@Nullable Object>) returned;
	}

}
