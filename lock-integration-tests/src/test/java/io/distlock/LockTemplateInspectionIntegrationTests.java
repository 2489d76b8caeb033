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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.distlock.LockSettings;
import io.distlock.store.AcquireResult;
import io.distlock.store.LockClient;
import io.distlock.store.LockState;
import io.distlock.test.LockStack;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link LockTemplate#inspect} and
 * {@link LockTemplate#forceRelease} against a real redis-server: what an operator sees of
 * a lock, and what removing it does to its holder, its waiters and the next fencing
 * token.
 */
class LockTemplateInspectionIntegrationTests {

	private static final Duration TTL = Duration.ofMinutes(1);

	// No test waits this long: a waiter that gets the lock sooner was woken, not polling.
	private static final Duration LONG_BACKOFF = Duration.ofSeconds(20);

	private static final String QUEUE = "{lock:k}\u001fqueue\u001flock:k";

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final LockWaiter waiter = new LockWaiter(LONG_BACKOFF, LONG_BACKOFF);

	private LockStack stack;

	private LockTemplate template;

	@BeforeEach
	void createTemplate() {
		this.stack = LockStack.on(redis.endpoint()).waiter(this.waiter).build();
		this.template = this.stack.template();
	}

	@AfterEach
	void destroyTemplate() {
		this.stack.close();
	}

	@Test
	void heldLockIsShownHeldWithinItsTtlWithItsHandlesFencingTokenAndWithoutItsOwnerToken() {
		try (LockHandle handle = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			LockState state = this.template.getEngine().inspect("k");
			assertThat(state.held()).isTrue();
			assertThat(state.remainingLease()).isPositive().isLessThanOrEqualTo(TTL);
			assertThat(state.lastFencingToken()).isEqualTo(handle.fencingToken());
			assertThat(state.fairWaiters()).isZero();
			// The lock key holds the owner token while the lock is held.
			String ownerToken = new StringRedisTemplate(this.stack.connectionFactory()).opsForValue().get("lock:k");
			assertThat(ownerToken).isNotBlank();
			assertThat(state.holder()).isNotNull().isNotEqualTo(ownerToken);
			assertThat(state.toString()).doesNotContain(ownerToken);
		}
	}

	@Test
	void releasedLockIsShownFreeWithItsLastFencingTokenStillKnown() {
		LockHandle handle = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		handle.close();
		assertThat(this.template.getEngine().inspect("k"))
			.isEqualTo(new LockState(false, null, handle.fencingToken(), 0, null));
	}

	@Test
	void fairWaitersAreCountedWhileTheyQueue() throws Exception {
		LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		List<CompletableFuture<Void>> waiters = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			waiters.add(CompletableFuture.runAsync(
					() -> this.template.tryAcquire(LockRequest.of("k", TTL, Duration.ofSeconds(30)).withFair(true))
						.orElseThrow()
						.close(),
					(task) -> new Thread(task).start()));
			long queued = i + 1;
			await().atMost(Duration.ofSeconds(5)).until(() -> (Long) redis.endpoint().command("LLEN", QUEUE) == queued);
		}
		assertThat(this.template.getEngine().inspect("k").fairWaiters()).isEqualTo(2);
		holder.close();
		CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
		assertThat(this.template.getEngine().inspect("k").fairWaiters()).isZero();
	}

	@Test
	void forceReleaseRemovesAnotherOwnersLockWhoseCloseThenReportsAMismatchNotAnException() {
		LockHandle handle = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		assertThat(this.template.getEngine().forceRelease("k")).isTrue();
		assertThat(this.template.getEngine().inspect("k").held()).isFalse();
		assertThat(handle.isHeld()).isFalse();
		assertThatNoException().isThrownBy(handle::close);
		assertThat(this.template.getEngine().getStatistics().getReleaseMismatches()).isEqualTo(1);
		assertThat(this.template.getEngine().getStatistics().getReleased()).isZero();
	}

	@ParameterizedTest(name = "fair: {0}")
	@ValueSource(booleans = { false, true })
	void forceReleaseWakesAWaitingCallerLongBeforeItsBackoffAndItGetsAGreaterFencingToken(boolean fair)
			throws Exception {
		LockHandle holder = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		Waiting waiting = startWaiting(LockRequest.of("k", TTL, LONG_BACKOFF).withFair(fair));
		long releasedAt = System.nanoTime();
		assertThat(this.template.getEngine().forceRelease("k")).isTrue();
		assertThat(waiting.acquiredAt(5) - releasedAt).isLessThan(TimeUnit.MILLISECONDS.toNanos(1500));
		try (LockHandle next = waiting.handle()) {
			assertThat(next.fencingToken()).isGreaterThan(holder.fencingToken());
		}
		holder.close();
	}

	@Test
	void forceReleaseOfAFreeKeyAnswersFalse() {
		assertThat(this.template.getEngine().forceRelease("k")).isFalse();
	}

	@Test
	void inspectAndForceReleasePutTheKeyPrefixBeforeTheCallersKey() {
		this.template = this.stack.template(LockSettings.builder().keyPrefix("app:").build());
		this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		assertThat(this.template.getEngine().inspect("k").held()).isTrue();
		assertThat(this.template.getEngine().forceRelease("k")).isTrue();
		assertThat(redis.endpoint().command("EXISTS", "app:k")).isEqualTo(0L);
	}

	@Test
	void inspectAndForceReleaseRefuseAnInvalidKeyAsALockRequestDoes() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.template.getEngine().inspect(" "))
			.withMessage("'key' must not be blank");
		assertThatIllegalArgumentException().isThrownBy(() -> this.template.getEngine().forceRelease("a\u001fb"))
			.withMessageContaining("'key' must not contain control characters");
	}

	@Test
	void storeThatCannotInspectIsRefusedWithItsClassNamed() {
		try (LockStack plainStore = LockStack.on(this.stack.connectionFactory())
			.withoutReleaseNotifier()
			.withoutLeaseRenewer()
			.templateClient(PlainLockClient::new)
			.build()) {
			LockTemplate plain = plainStore.template();
			assertThatExceptionOfType(UnsupportedOperationException.class)
				.isThrownBy(() -> plain.getEngine().inspect("k"))
				.withMessageContaining(PlainLockClient.class.getName());
			assertThatExceptionOfType(UnsupportedOperationException.class)
				.isThrownBy(() -> plain.getEngine().forceRelease("k"))
				.withMessageContaining(PlainLockClient.class.getName());
		}
	}

	@Test
	void failureOfTheStoreNamesTheCallersKey() {
		try (RedisServer server = RedisServer.start();
				LockStack stackOnServer = LockStack.on(server).withoutReleaseNotifier().withoutLeaseRenewer().build()) {
			LockTemplate template = stackOnServer.template();
			server.kill();
			assertThatExceptionOfType(LockBackendException.class).isThrownBy(() -> template.getEngine().inspect("k"))
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("k"))
				.satisfies((ex) -> assertThat(ex.getStoreKey()).isEqualTo("lock:k"));
			assertThatExceptionOfType(LockBackendException.class)
				.isThrownBy(() -> template.getEngine().forceRelease("k"))
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("k"));
		}
	}

	private Waiting startWaiting(LockRequest request) throws InterruptedException {
		CompletableFuture<LockHandle> acquired = new CompletableFuture<>();
		long[] acquiredAt = new long[1];
		Thread thread = new Thread(() -> {
			try {
				LockHandle handle = this.template.tryAcquire(request).orElseThrow();
				acquiredAt[0] = System.nanoTime();
				acquired.complete(handle);
			}
			catch (Throwable ex) {
				acquired.completeExceptionally(ex);
			}
		});
		thread.start();
		// Parked after a failed attempt, so the release has to wake it.
		await().atMost(Duration.ofSeconds(5)).until(() -> LockSupport.getBlocker(thread) instanceof LockWaiter.Waiter);
		return new Waiting(acquired, acquiredAt);
	}

	/**
	 * A thread waiting for a lock, parked.
	 */
	private record Waiting(CompletableFuture<LockHandle> acquired, long[] acquiredAtNanos) {

		long acquiredAt(long timeoutSeconds) throws Exception {
			this.acquired.get(timeoutSeconds, TimeUnit.SECONDS);
			return this.acquiredAtNanos[0];
		}

		LockHandle handle() {
			return this.acquired.join();
		}

	}

	/**
	 * A real store that offers only the calls every store must answer, as a store other
	 * than Redis might.
	 */
	private record PlainLockClient(LockClient store) implements LockClient {

		@Override
		public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
			return this.store.tryAcquire(key, ownerToken, ttl);
		}

		@Override
		public boolean release(String key, String ownerToken) {
			return this.store.release(key, ownerToken);
		}

		@Override
		public boolean renew(String key, String ownerToken, Duration ttl) {
			return this.store.renew(key, ownerToken, ttl);
		}

		@Override
		public boolean isHeld(String key, String ownerToken) {
			return this.store.isHeld(key, ownerToken);
		}

	}

}
