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

package io.distlock.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

import io.distlock.LockAcquisitionException;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Runs what docs/troubleshooting.md shows, in a Spring Boot application on a real
 * redis-server.
 */
@SpringBootTest(classes = TroubleshootingExamplesIntegrationTests.TestApplication.class,
		properties = "logging.level.io.distlock=DEBUG")
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
class TroubleshootingExamplesIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> redis.endpoint().host());
		registry.add("spring.data.redis.port", () -> redis.endpoint().port());
	}

	// The level outlives the closed context: without this, the next tests of this JVM
	// would log at DEBUG too.
	@AfterAll
	static void resetDebugLogger() {
		LoggingSystem.get(TroubleshootingExamplesIntegrationTests.class.getClassLoader())
			.setLogLevel("io.distlock", null);
	}

	@Autowired
	private RefundService refunds;

	@Autowired
	private OrderService orders;

	@Autowired
	private BlockingCharge charge;

	@Autowired
	private LockTemplate lockTemplate;

	@Test
	void lockedMethodCalledFromAnotherBeanRunsUnderItsLockButNotWhenCalledFromItsOwnClass() {
		this.refunds.refundOne(1);
		this.refunds.refundAll(List.of(2L, 3L));

		assertThat(this.refunds.refundsUnderLock()).containsExactly(true, false, false);
	}

	@Test
	void busyCallFailsWithTheMessageThePageQuotes() throws Exception {
		this.charge.block = true;
		CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> this.orders.pay(42));
		try {
			assertThat(this.charge.charging.await(30, TimeUnit.SECONDS)).as("the first payment holds order:42")
				.isTrue();
			LockAcquisitionException busy = catchThrowableOfType(LockAcquisitionException.class,
					() -> this.orders.pay(42));

			// The page's example, with this run's instance, thread, time and wait in it
			String asQuoted = busy.getMessage()
				.replaceFirst("waited \\d+ms", "waited 2ms")
				.replaceFirst("instance '[^']*'", "instance 'orders@web-1:4242'")
				.replaceFirst("thread '[^']*'", "thread 'http-nio-8080-exec-3'")
				.replaceFirst("since [0-9T:.-]+Z", "since 2026-12-06T09:15:02.114Z");
			assertThat(asQuoted).startsWith("Lock 'order:42' of OrderService.pay(long) was not acquired at once");
			assertThat(page("docs/troubleshooting.md")).contains(asQuoted);
		}
		finally {
			this.charge.release.countDown();
			holder.get(30, TimeUnit.SECONDS);
			this.charge.block = false;
		}
	}

	@Test
	void debugLoggerOfThePageNamesASkippedCall(CapturedOutput output) throws Exception {
		this.charge.block = false;
		// Another instance is paying order 43: it holds the lock
		try (LockHandle held = this.lockTemplate.tryAcquire("order:43", Duration.ofSeconds(10), Duration.ZERO)
			.orElseThrow()) {
			this.orders.payIfFree(43);
		}

		// The console abbreviates the logger's name:
		// i.distlock.interceptor.LockInterceptor
		assertThat(output).contains("DEBUG")
			.contains("distlock.interceptor.LockInterceptor")
			.contains("Skipped 'public void io.distlock.docs.OrderService.payIfFree(long)': lock 'order:43' is busy");
		assertThat(page("docs/troubleshooting.md")).contains("logging.level.io.distlock=DEBUG");
	}

	// From the repository's root, found upwards: lock-boot3-tests runs this test too.
	private static String page(String path) throws IOException {
		Path dir = Path.of("").toAbsolutePath();
		while (dir != null && !Files.isRegularFile(dir.resolve(path))) {
			dir = dir.getParent();
		}
		assertThat(dir).as("a folder above the working directory with " + path).isNotNull();
		return Files.readString(dir.resolve(path)).replaceAll("\\s+", " ");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		RefundService refundService() {
			return new RefundService();
		}

		@Bean
		BlockingCharge blockingCharge() {
			return new BlockingCharge();
		}

		@Bean
		OrderService orderService(BlockingCharge charge) {
			return new OrderService(charge);
		}

	}

	/**
	 * A charge that, while {@code block} is set, holds the payment (and so its lock)
	 * until released.
	 */
	static class BlockingCharge implements LongConsumer {

		final CountDownLatch charging = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		volatile boolean block;

		@Override
		public void accept(long orderId) {
			if (this.block) {
				this.charging.countDown();
				try {
					this.release.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

}
