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

package io.distlock.reactive;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.lease.LeaseRenewer;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Proves that {@link ReactiveLockTemplate} takes locks without blocking any thread:
 * BlockHound, installed in this JVM (a failsafe execution of its own), fails every
 * blocking call made on a non-blocking thread, Reactor's schedulers and Lettuce's event
 * loops among them; and the contenders all run on one such thread, which a blocking wait
 * would stall.
 */
class ReactiveLockingNonBlockingIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private ReactiveApplication application;

	private LeaseRenewer renewer;

	private LockTemplate blockingTemplate;

	private ReactiveLockTemplate template;

	private Scheduler oneThread;

	@BeforeAll
	static void installBlockHound() {
		// Short critical sections of the libraries underneath, not waits: cancelling a
		// timer (a timeout, or a pause woken early) removes it from the scheduler's
		// queue under that queue's lock, as scheduling one adds it (Reactor's own
		// integration allows the adding but not the removing); Lettuce writes a command
		// under its endpoint's lock. Allowed, since BlockHound's error, thrown from
		// inside
		// a lock's acquisition, leaves that lock broken and the JVM hung (seen with
		// both). distlock's own acquisition path is checked all the same.
		BlockHound.install((builder) -> builder
			.allowBlockingCallsInside(ScheduledThreadPoolExecutor.class.getName() + "$DelayedWorkQueue", "remove")
			.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "doExclusive")
			.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "incrementWriters")
			.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "lockWritersExclusive")
			// Spring Data Redis reads a script's SHA under the script's lock on every
			// call: a few instructions, contended only when two threads run a script at
			// the same instant (seen under load).
			.allowBlockingCallsInside("org.springframework.data.redis.core.script.DefaultRedisScript", "getSha1")
			// Spring Data Redis hands out its shared reactive connection under the
			// connection factory's lock on every call: as short, contended only when a
			// blocking caller of the same factory takes a connection at the same instant
			// (seen in a fresh-clone run under load).
			.allowBlockingCallsInside("org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory",
					"doInLock"));
	}

	@BeforeEach
	void createTemplates() {
		this.application = new ReactiveApplication(redis.endpoint());
		this.renewer = this.application.renewer;
		this.blockingTemplate = this.application.blockingTemplate;
		this.template = this.application.template;
		// A parallel scheduler's threads are non-blocking: BlockHound checks them.
		this.oneThread = Schedulers.newParallel("one-non-blocking-thread", 1);
	}

	@AfterEach
	void destroyTemplates() throws InterruptedException {
		this.oneThread.dispose();
		// Bounded: should a library's lock be broken after all, the run ends with the
		// failure instead of hanging in the clean-up.
		Thread closing = new Thread(this.application::close, "close-application");
		closing.setDaemon(true);
		closing.start();
		closing.join(Duration.ofSeconds(30).toMillis());
		assertThat(closing.isAlive()).as("the application closed within 30s").isFalse();
	}

	@Test
	void blockingLockTemplateWaitingOnANonBlockingThreadIsDetected() {
		// The check can fail: the blocking template parks the thread while it waits.
		try (LockHandle holder = this.blockingTemplate.tryAcquire("detected", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			Mono<String> blocking = Mono
				.fromCallable(() -> this.blockingTemplate.execute("detected", Duration.ofSeconds(10),
						Duration.ofSeconds(1), () -> "ran"))
				.subscribeOn(this.oneThread);
			assertThatException().isThrownBy(() -> blocking.block(TIMEOUT))
				.withCauseInstanceOf(BlockingOperationError.class);
		}
	}

	@Test
	void manyContendersOnOneNonBlockingThreadAllGetTheLockWithoutOverlap() {
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		int contenders = 100;
		List<Integer> done;
		// Held by a blocking caller first, so that every contender waits and is woken by
		// its release.
		try (LockHandle holder = this.blockingTemplate.tryAcquire("contended", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			Mono<List<Integer>> all = Flux.range(0, contenders)
				.flatMap((i) -> this.template
					.execute("contended", Duration.ofSeconds(5), Duration.ofSeconds(50), Mono.fromRunnable(() -> {
						if (inside.incrementAndGet() != 1) {
							overlaps.incrementAndGet();
						}
					}).then(Mono.delay(Duration.ofMillis(2), this.oneThread)).then(Mono.fromSupplier(() -> {
						inside.decrementAndGet();
						return i;
					})))
					.subscribeOn(this.oneThread), contenders)
				.collectList();
			Mono<List<Integer>> started = all.cache();
			started.subscribe();
			holder.close();
			done = started.block(TIMEOUT);
		}
		assertThat(done).hasSize(contenders);
		assertThat(overlaps).hasValue(0);
		assertThat(redis.endpoint().command("EXISTS", "lock:contended")).isEqualTo(0L);
	}

	@Test
	void fluxUnderALockRunsOnOneNonBlockingThread() {
		List<Long> values = this.template
			.executeMany("flux", Duration.ofSeconds(5), Duration.ofSeconds(5),
					Flux.interval(Duration.ofMillis(5), this.oneThread).take(10))
			.subscribeOn(this.oneThread)
			.collectList()
			.block(TIMEOUT);
		assertThat(values).hasSize(10);
		assertThat(redis.endpoint().command("EXISTS", "lock:flux")).isEqualTo(0L);
	}

}
