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
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.annotation.DistributedLocked;
import io.distlock.interceptor.UnsupportedLockOperationException.Feature;
import io.distlock.interceptor.UnsupportedLockOperationException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UnsupportedLockOperationFailureAnalyzer}.
 */
class UnsupportedLockOperationFailureAnalyzerTests {

	private final UnsupportedLockOperationFailureAnalyzer analyzer = new UnsupportedLockOperationFailureAnalyzer();

	@Test
	void fairLocksWithoutAFairStoreListTheMethodsAndOfferBothWaysOut() {
		Method pay = method("pay");
		Method refund = method("refund");
		FailureAnalysis analysis = this.analyzer
			.analyze(new UnsupportedLockOperationException(Feature.FAIR_LOCKS, List.of(pay, refund), "no fair mode"));
		assertThat(analysis.getDescription()).isEqualTo(String.format(
				"These @DistributedLocked methods ask for fair locks, taken in arrival order, but the application's "
						+ "lock store has no fair mode (Redlock has none):%n%n    %s%n    %s",
				pay, refund));
		assertThat(analysis.getAction())
			.isEqualTo("Remove fair = true from UnsupportedLockOperationFailureAnalyzerTests.Orders.pay(long), "
					+ "UnsupportedLockOperationFailureAnalyzerTests.Orders.refund(long), or lock on a single Redis, "
					+ "Sentinel or Cluster by removing distlock.redlock.nodes.");
	}

	@Test
	void reactiveMethodsWithoutAReactiveTemplateSayHowToGetOne() {
		Method pay = method("pay");
		FailureAnalysis analysis = this.analyzer
			.analyze(new UnsupportedLockOperationException(Feature.REACTIVE_LOCKS, List.of(pay), "no template"));
		assertThat(analysis.getDescription()).startsWith("These @DistributedLocked methods return a Mono or Flux")
			.contains("need a ReactiveLockTemplate")
			.endsWith(pay.toString());
		assertThat(analysis.getAction()).contains("so that a ReactiveLockTemplate is auto-configured")
			.contains("define a ReactiveLockTemplate bean")
			.endsWith("or make UnsupportedLockOperationFailureAnalyzerTests.Orders.pay(long) blocking.");
	}

	@Test
	void readLocksWithoutAReadWriteStoreSayHowToGetThem() {
		Method pay = method("pay");
		FailureAnalysis analysis = this.analyzer
			.analyze(new UnsupportedLockOperationException(Feature.READ_LOCKS, List.of(pay), "no read locks"));
		assertThat(analysis.getDescription()).startsWith("These @DistributedLocked methods ask for read locks")
			.endsWith(pay.toString());
		assertThat(analysis.getAction())
			.isEqualTo("Use mode = EXCLUSIVE on UnsupportedLockOperationFailureAnalyzerTests.Orders.pay(long), or "
					+ "lock on a single Redis, Sentinel or Cluster by removing distlock.redlock.nodes.");
	}

	@Test
	void permitsWithoutAPermitStoreSayHowToGetThem() {
		Method pay = method("pay");
		FailureAnalysis analysis = this.analyzer
			.analyze(new UnsupportedLockOperationException(Feature.PERMITS, List.of(pay), "no permits"));
		assertThat(analysis.getDescription()).contains("a concurrency limit (permits > 1)").endsWith(pay.toString());
		assertThat(analysis.getAction())
			.startsWith("Remove permits from UnsupportedLockOperationFailureAnalyzerTests.Orders.pay(long)");
	}

	@Test
	void refusalAtStartupIsFoundBehindTheContextFailure() {
		AtomicReference<Throwable> failure = new AtomicReference<>();
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class,
					DistLockReactiveAutoConfiguration.class))
			.withPropertyValues("distlock.replication.min-replicas=1")
			.withBean(ReactiveOrders.class)
			.run((context) -> failure.set(context.getStartupFailure()));
		FailureAnalysis analysis = this.analyzer.analyze(failure.get());
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).contains(ReactiveOrders.class.getName() + ".pay(long)");
		assertThat(analysis.getAction())
			.endsWith("or make UnsupportedLockOperationFailureAnalyzerTests.ReactiveOrders" + ".pay(long) blocking.");
	}

	@Test
	void fairLocksOnRedlockGetTheSameRemedyFromTheExceptionAndFromTheAnalysis() {
		AtomicReference<Throwable> failure = new AtomicReference<>();
		// Nothing listens on these ports: the nodes are connected to on the first lock.
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class))
			.withPropertyValues("distlock.redlock.nodes=redis://localhost:1,redis://localhost:2,redis://localhost:3")
			.withBean(FairOrders.class)
			.run((context) -> failure.set(context.getStartupFailure()));
		assertThat(failure.get()).isNotNull();
		FailureAnalysis analysis = this.analyzer.analyze(failure.get());
		assertThat(analysis).isNotNull();
		assertThat(analysis.getCause()).hasMessageEndingWith("(Redlock has none): remove fair = true, or lock on a "
				+ "single Redis, Sentinel or Cluster by removing distlock.redlock.nodes");
		assertThat(analysis.getAction())
			.isEqualTo("Remove fair = true from UnsupportedLockOperationFailureAnalyzerTests.FairOrders.pay(long), or "
					+ "lock on a single Redis, Sentinel or Cluster by removing distlock.redlock.nodes.");
	}

	private static Method method(String name) {
		Method method = ReflectionUtils.findMethod(Orders.class, name, long.class);
		assertThat(method).isNotNull();
		return method;
	}

	static class FairOrders {

		@DistributedLocked(key = "#orderId", fair = true)
		public void pay(long orderId) {
		}

	}

	static class ReactiveOrders {

		@DistributedLocked(key = "#orderId")
		public Mono<Void> pay(long orderId) {
			return Mono.empty();
		}

	}

	static class Orders {

		public void pay(long orderId) {
		}

		public void refund(long orderId) {
		}

	}

}
