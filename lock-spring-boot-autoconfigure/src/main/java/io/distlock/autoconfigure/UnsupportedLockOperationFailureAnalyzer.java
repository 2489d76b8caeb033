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

package io.distlock.autoconfigure;

import java.lang.reflect.Method;
import java.util.List;
import java.util.stream.Collectors;

import io.distlock.interceptor.UnsupportedLockOperationException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link UnsupportedLockOperationException}: the methods, the feature they
 * need that the lock store lacks, and the two ways out (change the lock store, or the
 * methods).
 */
class UnsupportedLockOperationFailureAnalyzer extends AbstractFailureAnalyzer<UnsupportedLockOperationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedLockOperationException cause) {
		return switch (cause.getFeature()) {
			case FAIR_LOCKS -> new FailureAnalysis(
					"These @DistributedLocked methods ask for fair locks, taken in "
							+ "arrival order, but the application's lock store has no fair mode (Redlock has none):"
							+ list(cause.getMethods()),
					"Remove fair = true from " + shortNames(cause.getMethods()) + ", or lock on a single Redis, "
							+ "Sentinel or Cluster by removing distlock.redlock.nodes.",
					cause);
			case REACTIVE_LOCKS -> new FailureAnalysis("These @DistributedLocked methods return a Mono or Flux, or "
					+ "are suspend functions, and need a ReactiveLockTemplate to lock them without blocking, but the "
					+ "application has none:" + list(cause.getMethods()),
					"Lock on a single Redis, Sentinel or Cluster through Lettuce with Reactor on the class path, "
							+ "without distlock.redlock.nodes and distlock.replication.min-replicas, so that a "
							+ "ReactiveLockTemplate is auto-configured; or define a ReactiveLockTemplate bean; or make "
							+ shortNames(cause.getMethods()) + " blocking.",
					cause);
			case READ_LOCKS -> new FailureAnalysis(
					"These @DistributedLocked methods ask for read locks (mode = READ), but the application's "
							+ "lock store has no read locks (Redlock has none):" + list(cause.getMethods()),
					"Use mode = EXCLUSIVE on " + shortNames(cause.getMethods()) + ", or lock on a single Redis, "
							+ "Sentinel or Cluster by removing distlock.redlock.nodes.",
					cause);
			case PERMITS -> new FailureAnalysis(
					"These @DistributedLocked methods ask for a concurrency limit (permits > 1), but the "
							+ "application's lock store has no permits (Redlock has none):" + list(cause.getMethods()),
					"Remove permits from " + shortNames(cause.getMethods()) + ", or lock on a single Redis, "
							+ "Sentinel or Cluster by removing distlock.redlock.nodes.",
					cause);
		};
	}

	private static String list(List<Method> methods) {
		return methods.stream()
			.map((method) -> String.format("%n    %s", method))
			.collect(Collectors.joining("", String.format("%n"), ""));
	}

	private static String shortNames(List<Method> methods) {
		return methods.stream().map(InvalidLockOperationFailureAnalyzer::shortName).collect(Collectors.joining(", "));
	}

}
