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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.observation.Observation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.distlock.LockBusyCallback;
import io.distlock.LockCallback;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.MultiLockCallback;
import io.distlock.MultiLockRequest;

/**
 * The release policy of the synchronous {@code execute} methods, which
 * {@code @DistributedLocked} methods share: release after the code, also when it throws;
 * a failed release is suppressed into the code's exception, or logged after code that
 * completed. While the code runs its locks are bound to the thread, and a nested call
 * re-enters them.
 */
final class SyncReleasePolicy {

	private static final Log logger = LogFactory.getLog("io.distlock.LockTemplate");

	private final EngineParts parts;

	private final AcquisitionPipeline pipeline;

	private final MultiKeyPipeline multiKey;

	SyncReleasePolicy(EngineParts parts, AcquisitionPipeline pipeline, MultiKeyPipeline multiKey) {
		this.parts = parts;
		this.pipeline = pipeline;
		this.multiKey = multiKey;
	}

	<T extends @Nullable Object, E extends Throwable> T execute(LockRequest request, LockCallback<T, E> callback,
			LockBusyCallback<T, E> whenBusy) throws E {
		LockHandle held = BoundLocks.find(this.parts.client(), this.parts.resource(request.key()));
		if (held != null) {
			Reentry.assertReenterable(held, request);
			// Re-entered: the outer call holds the lock and releases it.
			return callback.doWithLock(held);
		}
		long start = System.nanoTime();
		AcquisitionPipeline.Acquisition acquisition = this.pipeline.take(request, start, false);
		DefaultLockHandle handle = acquisition.handle();
		if (handle == null) {
			return whenBusy.whenBusy(acquisition.busy(request));
		}
		return releasingAfter(handle::close, "lock '" + request.key() + "'", request.ttl(), () -> {
			// Spans started by the code are children of the one of holding the lock.
			try (Observation.Scope scope = handle.hold().holding().openScope()) {
				return BoundLocks.runBound(handle, callback);
			}
		});
	}

	<T extends @Nullable Object, E extends Throwable> T executeAll(MultiLockRequest request,
			MultiLockCallback<T, E> callback, LockBusyCallback<T, E> whenBusy) throws E {
		List<LockHandle> reentered = new ArrayList<>();
		List<String> keys = new ArrayList<>();
		for (String key : request.keys()) {
			LockHandle held = BoundLocks.find(this.parts.client(), this.parts.resource(key));
			if (held != null) {
				Reentry.assertReenterable(held, request.requestFor(key));
				reentered.add(held);
			}
			else {
				keys.add(key);
			}
		}
		MultiKeyPipeline.Outcome outcome = this.multiKey.acquire(request, keys, reentered, System.nanoTime());
		DefaultMultiLockHandle locks = outcome.locks();
		if (locks == null) {
			return whenBusy.whenBusy(outcome.requireBusy());
		}
		return releasingAfter(locks::close, "locks " + request.keys(), request.ttl(), () -> {
			List<LockContext> scopes = new ArrayList<>(locks.taken().size());
			for (LockHandle lock : locks.taken()) {
				scopes.add(LockContext.open(lock));
			}
			try {
				return callback.doWithLocks(locks);
			}
			finally {
				for (int i = scopes.size() - 1; i >= 0; i--) {
					scopes.get(i).close();
				}
			}
		});
	}

	private static <T extends @Nullable Object, E extends Throwable> T releasingAfter(Runnable release,
			String description, Duration ttl, LockedCode<T, E> code) throws E {
		T result;
		try {
			result = code.run();
		}
		catch (Throwable ex) {
			try {
				release.run();
			}
			catch (RuntimeException releaseFailure) {
				ex.addSuppressed(releaseFailure);
			}
			throw ex;
		}
		try {
			release.run();
		}
		catch (RuntimeException ex) {
			// The work is done: failing now would invite the caller to run it again.
			logger.warn("Could not release " + description + " after its code completed; it expires after its ttl of "
					+ ttl.toMillis() + "ms", ex);
		}
		return result;
	}

	/**
	 * The code run under held locks.
	 */
	@FunctionalInterface
	private interface LockedCode<T extends @Nullable Object, E extends Throwable> {

		T run() throws E;

	}

}
