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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * An acquisition whose answer never arrives, because Redis was too slow for the command
 * timeout or the caller was interrupted, may still have taken the lock on Redis: the
 * template then gives the lock back, so that it does not stay taken for its whole ttl by
 * an owner that is gone.
 */
class LockTemplateCleanupIntegrationTests {

	// Far longer than any wait below: a lock left behind is still there when checked.
	private static final Duration TTL = Duration.ofSeconds(30);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final LockWaiter waiter = new LockWaiter(Duration.ofMillis(500));

	private LockStack stack;

	private LockTemplate template;

	@BeforeEach
	void serverCanBeFrozen() {
		assumeThat(redis.endpoint().isControllable()).isTrue();
	}

	@AfterEach
	void destroyTemplate() {
		if (this.stack != null) {
			this.stack.close();
		}
	}

	@Test
	void acquisitionThatTimesOutOnASlowRedisLeavesNoLockBehind() {
		createTemplate(Duration.ofMillis(200));
		redis.endpoint().pause();
		try {
			// The release that gives the lock back is sent after the attempt, and the
			// caller does not wait for it.
			assertThatExceptionOfType(LockBackendException.class)
				.isThrownBy(() -> this.template.tryAcquire("k", TTL, Duration.ZERO))
				.withMessageContaining("to acquire lock 'lock:k'")
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("k"))
				.satisfies((ex) -> assertThat(ex.getSuppressed()).isEmpty());
		}
		finally {
			redis.endpoint().resume();
		}
		// The server runs the acquire script it got while frozen, then the release that
		// followed it on the same connection.
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L));
		try (LockHandle other = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow()) {
			assertThat(other.isHeld()).isTrue();
		}
	}

	@Test
	void acquisitionInterruptedWhileRedisIsSlowLeavesNoLockBehind() throws Exception {
		// A command timeout long enough that the interrupt comes first.
		createTemplate(Duration.ofSeconds(2));
		redis.endpoint().pause();
		CompletableFuture<Throwable> failure = new CompletableFuture<>();
		Thread caller = new Thread(() -> {
			try {
				this.template.tryAcquire("k", TTL, Duration.ZERO);
				failure.complete(null);
			}
			catch (Throwable ex) {
				failure.complete(ex);
			}
		});
		try {
			caller.start();
			// The only timed wait on this path is for the answer of the acquire script,
			// which the Redis client has sent by then.
			await().atMost(Duration.ofSeconds(5))
				.pollInterval(Duration.ofMillis(10))
				.until(() -> caller.getState() == Thread.State.TIMED_WAITING);
			caller.interrupt();
			assertThat(failure.get(5, TimeUnit.SECONDS)).isInstanceOf(LockAcquisitionException.class)
				.hasMessageStartingWith("Interrupted after waiting");
		}
		finally {
			redis.endpoint().resume();
		}
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L));
		assertThat(this.template.tryAcquire("k", TTL, Duration.ZERO)).isPresent().get().satisfies(LockHandle::close);
	}

	// Cleanup code on an interrupted thread (a cancelled task, a stopping component)
	// releases its lock too, rather than leaving it to its ttl.
	@Test
	void closeOnAnInterruptedThreadReleasesTheLockAndKeepsTheInterrupt() {
		createTemplate(Duration.ofSeconds(2));
		LockHandle lock = this.template.tryAcquire("k", TTL, Duration.ZERO).orElseThrow();
		Thread.currentThread().interrupt();
		try {
			lock.close();
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	@Test
	void executeOnAThreadInterruptedDuringTheActionReleasesTheLock() {
		createTemplate(Duration.ofSeconds(2));
		try {
			this.template.execute("k", TTL, Duration.ZERO, () -> {
				Thread.currentThread().interrupt();
				return null;
			});
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
	}

	private void createTemplate(Duration commandTimeout) {
		this.stack = LockStack.on(redis.endpoint())
			.commandTimeout(commandTimeout)
			.withoutReleaseNotifier()
			.withoutLeaseRenewer()
			.waiter(this.waiter)
			.build();
		this.template = this.stack.template();
		// Connected, and the scripts loaded, so that the acquire script is what the
		// frozen server gets.
		this.template.tryAcquire("warm-up", TTL, Duration.ZERO).orElseThrow().close();
	}

}
