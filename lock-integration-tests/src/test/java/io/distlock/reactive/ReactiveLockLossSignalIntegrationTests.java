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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.distlock.LockRequest;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration tests, on a real redis-server, for the signal that reactive work gets when
 * {@link ReactiveLockTemplate#releaseHeldLocks()} releases its lock while it still runs.
 */
class ReactiveLockLossSignalIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private ReactiveApplication application;

	@BeforeEach
	void createApplication() {
		this.application = new ReactiveApplication(redis.endpoint());
	}

	@AfterEach
	void closeApplication() {
		this.application.close();
	}

	@Test
	void releaseHeldLocksCompletesWhenLostOfReactiveWorkStillRunningBeforeTheRelease() throws Exception {
		ReactiveLockTemplate template = this.application.template;
		Sinks.Empty<Void> finish = Sinks.empty();
		CountDownLatch working = new CountDownLatch(1);
		AtomicReference<ReactiveLockHandle> lock = new AtomicReference<>();
		CompletableFuture<Object> keyWhenSignalled = new CompletableFuture<>();
		Disposable running = template.execute(LockRequest.of("k", TTL, Duration.ZERO), (held) -> {
			lock.set(held);
			held.whenLost()
				.doOnSuccess((done) -> keyWhenSignalled.complete(redis.endpoint().command("EXISTS", "lock:k")))
				.subscribe();
			working.countDown();
			return finish.asMono().thenReturn("done");
		}).subscribe();
		try {
			assertThat(working.await(5, TimeUnit.SECONDS)).isTrue();

			assertThat(template.releaseHeldLocks().block(TIMEOUT)).isOne();

			assertThat(keyWhenSignalled).isCompletedWithValue(1L);
			assertThat(lock.get().whenLost().toFuture()).isCompleted();
			assertThat(redis.endpoint().command("EXISTS", "lock:k")).isEqualTo(0L);
			assertThat(running.isDisposed()).as("the work still runs").isFalse();
		}
		finally {
			finish.tryEmitEmpty();
			running.dispose();
		}
	}

}
