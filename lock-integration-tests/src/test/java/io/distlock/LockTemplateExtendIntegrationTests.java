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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.test.LockStack;
import io.distlock.test.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Integration tests for {@link LockHandle#extend(Duration, Duration)} against a real
 * redis-server: the lease is set owner-checked, the new minimum hold counts from the
 * extension, and a lock no longer held is not extended but reported lost.
 */
@Timeout(60)
class LockTemplateExtendIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private LockStack stack;

	private LockTemplate template;

	@BeforeEach
	void createTemplate() {
		this.stack = LockStack.on(redis.endpoint()).commandTimeout(Duration.ofSeconds(5)).build();
		this.template = this.stack.template();
	}

	@AfterEach
	void closeStack() {
		this.stack.close();
	}

	@Test
	void extendSetsTheLeaseAndTheNewMinimumHoldKeepsTheLockAfterClose() {
		LockHandle lock = this.template.tryAcquire(request("report", Duration.ofSeconds(5))).orElseThrow();
		assertThat(lock.extend(Duration.ofMinutes(2), Duration.ofSeconds(3))).isTrue();
		assertThat(pttl("lock:report")).isGreaterThan(60_000);
		lock.close();
		assertThat(pttl("lock:report")).isPositive().isLessThanOrEqualTo(3_000);
		assertThat(lock.isHeld()).isFalse();
	}

	@Test
	void extendWithoutMinimumHoldLetsCloseReleaseAtOnce() {
		LockHandle lock = this.template
			.tryAcquire(request("job", Duration.ofSeconds(5)).withMinHold(Duration.ofSeconds(5)))
			.orElseThrow();
		assertThat(lock.extend(Duration.ofSeconds(30), Duration.ZERO)).isTrue();
		lock.close();
		assertThat(redis.endpoint().command("EXISTS", "lock:job")).isEqualTo(0L);
	}

	@Test
	void extendOfAnExpiredLockFailsAndReportsItLost() throws InterruptedException {
		LockHandle lock = this.template.tryAcquire(request("short", Duration.ofMillis(50))).orElseThrow();
		Thread.sleep(200);
		assertThat(lock.extend(Duration.ofSeconds(30), Duration.ZERO)).isFalse();
		assertThat(lock.whenLost().toCompletableFuture()).isDone();
		assertThat(redis.endpoint().command("EXISTS", "lock:short")).isEqualTo(0L);
		lock.close();
	}

	@Test
	void extendOfALockTakenMeanwhileByAnotherLeavesThatLockAlone() throws InterruptedException {
		LockHandle lock = this.template.tryAcquire(request("taken", Duration.ofMillis(50))).orElseThrow();
		Thread.sleep(200);
		try (LockHandle other = this.template.tryAcquire(request("taken", Duration.ofSeconds(5))).orElseThrow()) {
			assertThat(lock.extend(Duration.ofMinutes(5), Duration.ZERO)).isFalse();
			assertThat(pttl("lock:taken")).isLessThanOrEqualTo(5_000);
			assertThat(other.isHeld()).isTrue();
		}
		lock.close();
	}

	@Test
	void extendAfterCloseFails() {
		LockHandle lock = this.template.tryAcquire(request("closed", Duration.ofSeconds(5))).orElseThrow();
		lock.close();
		assertThat(lock.extend(Duration.ofSeconds(5), Duration.ZERO)).isFalse();
	}

	@Test
	void extendRejectsDurationsOutOfRange() {
		try (LockHandle lock = this.template.tryAcquire(request("invalid", Duration.ofSeconds(5))).orElseThrow()) {
			assertThatIllegalArgumentException().isThrownBy(() -> lock.extend(Duration.ZERO, Duration.ZERO))
				.withMessage("'leaseTime' must be between 1ms and 365 days but was PT0S");
			assertThatIllegalArgumentException()
				.isThrownBy(() -> lock.extend(Duration.ofSeconds(1), Duration.ofSeconds(2)))
				.withMessage("'minHold' must be between zero and 'leaseTime' (PT1S) but was PT2S");
		}
	}

	private static LockRequest request(String key, Duration ttl) {
		return LockRequest.builder(key).ttl(ttl).waitTime(Duration.ZERO).autoRenew(false).build();
	}

	private static long pttl(String key) {
		return (Long) redis.endpoint().command("PTTL", key);
	}

}
