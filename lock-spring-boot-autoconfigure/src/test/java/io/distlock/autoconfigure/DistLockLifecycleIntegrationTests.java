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

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.leader.LeaderElection;
import io.distlock.lease.LeaseRenewer;
import io.distlock.redis.RedisReleaseNotifier;
import io.distlock.test.RedisEndpoint;
import io.distlock.test.RedisServerExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for the lifecycle of the auto-configured locking on a real
 * redis-server: Spring's {@code pause()} and {@code restart()} (which the test context
 * cache calls on a context it keeps for later) and {@code stop()} and {@code start()}
 * leave every component working, on one Redis and on Redlock, and a lock held while its
 * context is paused stays held and renewed.
 */
class DistLockLifecycleIntegrationTests {

	private static final Duration TTL = Duration.ofMillis(1500);

	private static final Duration PATIENCE = Duration.ofSeconds(15);

	// The application's Redis, then three Redlock nodes.
	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(4);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class,
				DistLockLeaderAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port(), "distlock.leader.name=lifecycle-leader",
				"distlock.leader.ttl=2s",
				// A held lock would delay a stop by one second at most.
				"spring.lifecycle.timeout-per-shutdown-phase=6s");

	@Test
	void lockHeldWhileTheContextIsPausedIsRenewedAndNotReleased() {
		this.contextRunner.run((context) -> {
			LockTemplate template = context.getBean(LockTemplate.class);
			LockHandle held = template.tryAcquire(LockRequest.of("order:3", TTL, Duration.ZERO)).orElseThrow();
			context.getSourceApplicationContext().pause();
			assertThat(context.getBean(LeaseRenewer.class).isRunning()).isTrue();
			awaitRenewals(redis.endpoint(), "lock:order:3");
			assertThat(held.isHeld()).isTrue();
			assertThat(held.whenLost().toCompletableFuture()).isNotDone();
			context.getSourceApplicationContext().restart();
			assertThat(lockedCall(template, "order:3-after-restart")).isEqualTo("locked");
			held.close();
			assertThat(redis.endpoint().command("EXISTS", "lock:order:3")).isEqualTo(0L);
		});
	}

	@Test
	void pauseAndRestartLeaveLockingReleaseNotificationsAndLeadershipWorking() {
		this.contextRunner.run((context) -> {
			ConfigurableApplicationContext source = context.getSourceApplicationContext();
			awaitEverythingWorking(context, "order:5");
			source.pause();
			// Paused: the leadership is given up and the subscription closed.
			assertThat(context.getBean(LeaderElection.class).isLeader()).isFalse();
			assertThat(context.getBean(RedisReleaseNotifier.class).isSubscribed()).isFalse();
			source.restart();
			awaitEverythingWorking(context, "order:6");
			source.pause();
			source.restart();
			awaitEverythingWorking(context, "order:7");
		});
	}

	@Test
	void stopAndStartLeaveLockingReleaseNotificationsAndLeadershipWorking() {
		this.contextRunner.run((context) -> {
			ConfigurableApplicationContext source = context.getSourceApplicationContext();
			awaitEverythingWorking(context, "order:8");
			source.stop();
			assertThat(context.getBean(LeaseRenewer.class).isRunning()).isFalse();
			assertThat(context.getBean(LeaderElection.class).isLeader()).isFalse();
			assertThat(context.getBean(RedisReleaseNotifier.class).isSubscribed()).isFalse();
			source.start();
			awaitEverythingWorking(context, "order:9");
			source.stop();
			source.start();
			awaitEverythingWorking(context, "order:10");
		});
	}

	@Test
	void redlockLocksAndReleaseNotificationsSurvivePauseAndRestartAndStopAndStart() {
		this.contextRunner
			.withPropertyValues("distlock.redlock.nodes=" + String.join(",", redis.uris().subList(1, 4)),
					"distlock.redlock.node-timeout=200ms")
			.run((context) -> {
				ConfigurableApplicationContext source = context.getSourceApplicationContext();
				RedlockReleaseNotifiers notifiers = context.getBean(RedlockReleaseNotifiers.class);
				LockTemplate template = context.getBean(LockTemplate.class);
				await().atMost(PATIENCE).until(notifiers::isSubscribed);
				LockHandle held = template.tryAcquire(LockRequest.of("order:11", TTL, Duration.ZERO)).orElseThrow();
				source.pause();
				assertThat(notifiers.isSubscribed()).isFalse();
				awaitRenewals(redis.endpoint(1), "lock:order:11");
				source.restart();
				await().atMost(PATIENCE).until(notifiers::isSubscribed);
				assertThat(lockedCall(template, "order:12")).isEqualTo("locked");
				held.close();
				source.stop();
				assertThat(notifiers.isSubscribed()).isFalse();
				source.start();
				await().atMost(PATIENCE).until(notifiers::isSubscribed);
				assertThat(lockedCall(template, "order:13")).isEqualTo("locked");
			});
	}

	/**
	 * Wait for three renewals of the given lock, seen as rises of its remaining time to
	 * live: it outlives the ttl it was taken with.
	 */
	private static void awaitRenewals(RedisEndpoint endpoint, String key) {
		AtomicLong last = new AtomicLong(pttl(endpoint, key));
		AtomicInteger renewals = new AtomicInteger();
		await().atMost(PATIENCE).pollInterval(Duration.ofMillis(20)).until(() -> {
			long pttl = pttl(endpoint, key);
			if (pttl > last.getAndSet(pttl)) {
				renewals.incrementAndGet();
			}
			return renewals.get() >= 3 || pttl < 0;
		});
		assertThat(renewals).as("renewals of '%s'", key).hasValue(3);
	}

	private void awaitEverythingWorking(AssertableApplicationContext context, String key) {
		await().atMost(PATIENCE).until(context.getBean(LeaderElection.class)::isLeader);
		await().atMost(PATIENCE).until(context.getBean(RedisReleaseNotifier.class)::isSubscribed);
		LockTemplate template = context.getBean(LockTemplate.class);
		assertThat(lockedCall(template, key)).isEqualTo("locked");
		assertThat(context.getBean(LeaseRenewer.class).isRunning()).isTrue();
	}

	private static String lockedCall(LockTemplate template, String key) {
		return template.execute(LockRequest.of(key, TTL, Duration.ofSeconds(2)), () -> "locked");
	}

	private static long pttl(RedisEndpoint endpoint, String key) {
		Object pttl = endpoint.command("PTTL", key);
		return (pttl instanceof Long millis) ? millis : -2;
	}

}
