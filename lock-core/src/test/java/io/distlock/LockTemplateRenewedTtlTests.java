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

package io.distlock;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import io.distlock.engine.LockEngine;
import io.distlock.lease.LeaseRenewer;
import io.distlock.reactive.ReactiveLockTemplate;
import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;
import io.distlock.store.ReactiveLockClient;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests that every front door of the template refuses an auto-renewed lock whose ttl is
 * shorter than {@link LockRequest#MIN_RENEWED_TTL}, before it asks the store, and accepts
 * that minimum and a short fixed lease.
 */
class LockTemplateRenewedTtlTests {

	private static final String TOO_SHORT = "Lock 'order:42': a ttl of 10ms is too short for a lease that is "
			+ "renewed: it must be at least 500ms";

	private final BusyLockClient client = new BusyLockClient();

	private final LockTemplate template = new LockTemplate(this.client);

	@Test
	void tryAcquireRefusesARenewedTtlBelowTheMinimumWithoutAskingTheStore() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.tryAcquire("order:42", Duration.ofMillis(10), Duration.ZERO))
			.withMessageContaining(TOO_SHORT)
			.withMessageContaining("Duration.ofSeconds(10)")
			.withMessageContaining("autoRenew false");
		assertThat(this.client.ttls).isEmpty();
	}

	@Test
	void executeRefusesARenewedTtlBelowTheMinimum() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.execute(LockRequest.of("order:42", Duration.ofMillis(10), Duration.ZERO),
					() -> "ran"))
			.withMessageContaining(TOO_SHORT);
		assertThat(this.client.ttls).isEmpty();
	}

	@Test
	void executeAsyncRefusesARenewedTtlBelowTheMinimum() {
		assertThatIllegalArgumentException().isThrownBy(
				() -> this.template.executeAsync(LockRequest.of("order:42", Duration.ofMillis(10), Duration.ZERO),
						(lock) -> CompletableFuture.completedFuture("ran")))
			.withMessageContaining(TOO_SHORT);
		assertThat(this.client.ttls).isEmpty();
	}

	@Test
	void multiKeyAcquisitionRefusesARenewedTtlBelowTheMinimum() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.tryAcquireAll(List.of("order:42", "order:43"), Duration.ofMillis(10),
					Duration.ZERO))
			.withMessageContaining(
					"Locks [order:42, order:43]: a ttl of 10ms is too short for a lease that is renewed");
		assertThat(this.client.ttls).isEmpty();
	}

	@Test
	void reactiveTemplateRefusesARenewedTtlBelowTheMinimum() {
		ReactiveLockClient unused = (ReactiveLockClient) Proxy.newProxyInstance(getClass().getClassLoader(),
				new Class<?>[] { ReactiveLockClient.class }, (proxy, method, args) -> {
					throw new UnsupportedOperationException(method.getName());
				});
		try (LeaseRenewer renewer = new LeaseRenewer(this.client, Duration.ofHours(1))) {
			LockEngine engine = new LockEngine(this.client, new LockWaiter(Duration.ofSeconds(1)),
					LockSettings.defaults(), renewer);
			ReactiveLockTemplate reactive = new ReactiveLockTemplate(unused, engine);
			assertThatIllegalArgumentException().isThrownBy(
					() -> reactive.execute("order:42", Duration.ofMillis(10), Duration.ZERO, Mono.just("ran")).block())
				.withMessageContaining(TOO_SHORT);
		}
	}

	@Test
	void renewedTtlOfTheMinimumIsAccepted() {
		assertThat(LockRequest.MIN_RENEWED_TTL).isEqualTo(Duration.ofMillis(500));
		assertThat(this.template.tryAcquire("order:42", Duration.ofMillis(500), Duration.ZERO)).isEmpty();
		assertThat(this.client.ttls).containsExactly(Duration.ofMillis(500));
	}

	@Test
	void fixedLeaseBelowTheMinimumIsAccepted() {
		LockRequest fixed = LockRequest.of("order:42", Duration.ofMillis(10), Duration.ZERO).withAutoRenew(false);
		assertThat(this.template.tryAcquire(fixed)).isEmpty();
		assertThat(this.client.ttls).containsExactly(Duration.ofMillis(10));
	}

	/**
	 * A store whose every key is busy, recording the ttl of each attempt.
	 */
	static class BusyLockClient implements LockClient {

		final List<Duration> ttls = new CopyOnWriteArrayList<>();

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			this.ttls.add(ttl);
			return new AcquireResult.Busy(null);
		}

		@Override
		public boolean release(String key, String ownerToken) {
			return false;
		}

		@Override
		public boolean renew(String key, String ownerToken, Duration ttl) {
			return false;
		}

		@Override
		public boolean isHeld(String key, String ownerToken) {
			return false;
		}

	}

}
