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

package io.distlock.annotation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.store.AcquireResult;
import io.distlock.store.PermitLockClient;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.LockMode;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration tests for the kinds of locks of {@link DistributedLocked} (several keys,
 * read/write, permits) between two application contexts on one real redis-server, each
 * with its own connections, template and renewal, as two instances of a service would be.
 * The locked methods record who is inside, so that an overlap is counted, not guessed.
 */
@Timeout(120)
class DistributedLockedKindsIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode().flushBeforeEach(false);

	private static ConfigurableApplicationContext first;

	private static ConfigurableApplicationContext second;

	@BeforeAll
	static void startTwoApplications() {
		first = start("first");
		second = start("second");
	}

	@AfterAll
	static void stopApplications() {
		if (first != null) {
			first.close();
		}
		if (second != null) {
			second.close();
		}
	}

	@BeforeEach
	void resetRecords() {
		Occupancy.reset();
		Reports.reset();
	}

	@Test
	void givenTransfersWithOverlappingAccountsInOppositeOrdersWhenRunFromBothApplicationsThenAllFinishWithoutOverlap()
			throws Exception {
		long[][] pairs = { { 1, 2 }, { 2, 1 }, { 2, 3 }, { 3, 1 }, { 1, 3 }, { 3, 2 } };
		int threads = 12;
		int perThread = 15;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> results = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				Bank bank = ((t % 2 == 0) ? first : second).getBean(Bank.class);
				long[] pair = pairs[t % pairs.length];
				results.add(executor.submit(() -> {
					for (int i = 0; i < perThread; i++) {
						bank.transfer(pair[0], pair[1]);
					}
					return null;
				}));
			}
			for (Future<?> result : results) {
				// A deadlock would show as a timeout here.
				result.get(90, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(Occupancy.entries("account:1") + Occupancy.entries("account:2") + Occupancy.entries("account:3"))
			.isEqualTo(2 * threads * perThread);
		assertThat(Occupancy.overlaps()).isZero();
	}

	@Test
	void givenTransfersOnDisjointAccountsThenTheyRunAtTheSameTime() throws Exception {
		CountDownLatch bothInside = new CountDownLatch(2);
		Bank.meeting = bothInside;
		try {
			ExecutorService executor = Executors.newFixedThreadPool(2);
			try {
				Future<Boolean> one = executor.submit(() -> first.getBean(Bank.class).transferAndMeet(10, 11));
				Future<Boolean> other = executor.submit(() -> second.getBean(Bank.class).transferAndMeet(12, 13));

				// Each waits inside its locks for the other: only possible at the same
				// time.
				assertThat(one.get(30, TimeUnit.SECONDS)).isTrue();
				assertThat(other.get(30, TimeUnit.SECONDS)).isTrue();
			}
			finally {
				executor.shutdownNow();
			}
		}
		finally {
			Bank.meeting = null;
		}
	}

	@Test
	void givenAnOrderWhenItsItemsAreLockedThenEverySkuIsHeldAndSeenInTheLockContext() {
		List<String> held = first.getBean(Bank.class)
			.reserve(List.of(new Item("B-2"), new Item("A-1"), new Item("B-2")));

		assertThat(held).containsExactly("sku:A-1", "sku:B-2");
	}

	@Test
	void givenManyReadersThenTheyHoldTheReportAtTheSameTime() throws Exception {
		CountDownLatch readersInside = new CountDownLatch(4);
		Reports.meeting = readersInside;
		try {
			ExecutorService executor = Executors.newFixedThreadPool(4);
			try {
				List<Future<Boolean>> readers = new ArrayList<>();
				for (int i = 0; i < 4; i++) {
					Reports reports = ((i % 2 == 0) ? first : second).getBean(Reports.class);
					readers.add(executor.submit(() -> reports.readAndMeet("q3")));
				}
				for (Future<Boolean> reader : readers) {
					assertThat(reader.get(30, TimeUnit.SECONDS)).isTrue();
				}
			}
			finally {
				executor.shutdownNow();
			}
		}
		finally {
			Reports.meeting = null;
		}
	}

	@Test
	void givenReadersAndWritersFromBothApplicationsThenAWriterIsAlwaysAlone() throws Exception {
		int threads = 8;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> results = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				Reports reports = ((t % 2 == 0) ? first : second).getBean(Reports.class);
				boolean writer = t < 3;
				results.add(executor.submit(() -> {
					for (int i = 0; i < 20; i++) {
						if (writer) {
							reports.rebuild("q4");
						}
						else {
							reports.read("q4");
						}
					}
					return null;
				}));
			}
			for (Future<?> result : results) {
				result.get(90, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(Reports.writes.get()).isEqualTo(60);
		assertThat(Reports.readsWhileWriting.get()).isZero();
		assertThat(Reports.writersTogether.get()).isZero();
		assertThat(Reports.mostReadersAtOnce.get()).isGreaterThan(1);
	}

	@Test
	void givenAStreamOfOverlappingReadersWhenAWriterWaitsThenItGetsTheReportWhileReadersKeepComing() throws Exception {
		AtomicBoolean stop = new AtomicBoolean();
		AtomicInteger readsAfterWrite = new AtomicInteger();
		AtomicBoolean written = new AtomicBoolean();
		ExecutorService executor = Executors.newFixedThreadPool(4);
		try {
			for (int t = 0; t < 4; t++) {
				Reports reports = ((t % 2 == 0) ? first : second).getBean(Reports.class);
				executor.submit(() -> {
					// Each reader holds for a while and they overlap: the report never
					// has no reader unless readers are kept out.
					while (!stop.get()) {
						reports.readSlowly("q5");
						if (written.get()) {
							readsAfterWrite.incrementAndGet();
						}
					}
					return null;
				});
			}
			while (Reports.readersNow.get() < 2) {
				Thread.onSpinWait();
			}

			second.getBean(Reports.class).rebuildPatiently("q5");
			written.set(true);
			while (readsAfterWrite.get() < 4) {
				Thread.onSpinWait();
			}
		}
		finally {
			stop.set(true);
			executor.shutdown();
			assertThat(executor.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
		}
		assertThat(Reports.readsWhileWriting.get()).isZero();
	}

	@Test
	void givenAnExportLimitOfThreeThenAtMostThreeRunAtOnceAcrossBothApplications() throws Exception {
		int threads = 10;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> results = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				Exports exports = ((t % 2 == 0) ? first : second).getBean(Exports.class);
				results.add(executor.submit(() -> {
					for (int i = 0; i < 10; i++) {
						exports.export();
					}
					return null;
				}));
			}
			for (Future<?> result : results) {
				result.get(90, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(Exports.runs.get()).isEqualTo(threads * 10);
		assertThat(Exports.mostAtOnce.get()).isEqualTo(3);
	}

	@Test
	void givenACrashedHolderOfAPermitThenItsPermitReturnsAfterItsTtl() {
		// Holders that crashed: their permits are taken and never renewed nor released.
		PermitLockClient store = first.getBean(PermitLockClient.class);
		String resource = "lock:reports-export";
		assertThat(store.tryAcquirePermit(resource, "crashed-1", Duration.ofMillis(1500), 2))
			.isInstanceOf(AcquireResult.Acquired.class);
		assertThat(store.tryAcquirePermit(resource, "crashed-2", Duration.ofMillis(1500), 2))
			.isInstanceOf(AcquireResult.Acquired.class);
		Exports exports = second.getBean(Exports.class);

		assertThat(exports.tryExportOnce()).isNull();
		// Got in once the first crashed holder's lease ran out (the second's lasts a few
		// milliseconds longer).
		assertThat(exports.exportWaiting()).isTrue();
		assertThat(store.isHeld(store.permitLeaseKey(resource), "crashed-1")).isFalse();
	}

	private static ConfigurableApplicationContext start(String name) {
		return new SpringApplicationBuilder(TestApplication.class).web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port(), "spring.data.redis.timeout=2s",
					"spring.application.name=" + name, "spring.main.banner-mode=off")
			.run();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		Bank bank() {
			return new Bank();
		}

		@Bean
		Reports reports() {
			return new Reports();
		}

		@Bean
		Exports exports() {
			return new Exports();
		}

	}

	/**
	 * Who is inside the locked methods, per key, across both applications.
	 */
	static final class Occupancy {

		private static final Map<String, AtomicInteger> inside = new ConcurrentHashMap<>();

		private static final Map<String, AtomicInteger> entries = new ConcurrentHashMap<>();

		private static final AtomicInteger overlaps = new AtomicInteger();

		static void enter(String key) {
			entries.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet();
			if (inside.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet() > 1) {
				overlaps.incrementAndGet();
			}
		}

		static void leave(String key) {
			inside.get(key).decrementAndGet();
		}

		static int entries(String key) {
			AtomicInteger count = entries.get(key);
			return (count != null) ? count.get() : 0;
		}

		static int overlaps() {
			return overlaps.get();
		}

		static void reset() {
			inside.clear();
			entries.clear();
			overlaps.set(0);
		}

	}

	static class Bank {

		// Static: the proxy's fields are not the bean's.
		static volatile CountDownLatch meeting;

		@DistributedLocked(keys = { "'account:' + #from", "'account:' + #to" }, ttl = "10s", waitTime = "60s")
		public void transfer(long from, long to) {
			Occupancy.enter("account:" + from);
			Occupancy.enter("account:" + to);
			Thread.yield();
			Occupancy.leave("account:" + to);
			Occupancy.leave("account:" + from);
		}

		@DistributedLocked(keys = { "'account:' + #from", "'account:' + #to" }, ttl = "10s", waitTime = "5s")
		public boolean transferAndMeet(long from, long to) throws InterruptedException {
			CountDownLatch latch = meeting;
			latch.countDown();
			return latch.await(20, TimeUnit.SECONDS);
		}

		@DistributedLocked(name = "sku", keys = "#items.![sku]", ttl = "10s")
		public List<String> reserve(List<Item> items) {
			return LockContext.held().stream().map(LockHandle::key).toList();
		}

	}

	record Item(String sku) {

	}

	static class Reports {

		static volatile CountDownLatch meeting;

		static final AtomicInteger readersNow = new AtomicInteger();

		static final AtomicInteger writersNow = new AtomicInteger();

		static final AtomicInteger mostReadersAtOnce = new AtomicInteger();

		static final AtomicInteger readsWhileWriting = new AtomicInteger();

		static final AtomicInteger writersTogether = new AtomicInteger();

		static final AtomicInteger writes = new AtomicInteger();

		@DistributedLocked(name = "report", key = "#id", mode = LockMode.READ, ttl = "10s", waitTime = "5s")
		public boolean readAndMeet(String id) throws InterruptedException {
			CountDownLatch latch = meeting;
			latch.countDown();
			return latch.await(20, TimeUnit.SECONDS);
		}

		@DistributedLocked(name = "report", key = "#id", mode = LockMode.READ, ttl = "10s", waitTime = "60s")
		public void read(String id) throws InterruptedException {
			reading(1);
		}

		@DistributedLocked(name = "report", key = "#id", mode = LockMode.READ, ttl = "10s", waitTime = "60s")
		public void readSlowly(String id) throws InterruptedException {
			reading(40);
		}

		@DistributedLocked(name = "report", key = "#id", mode = LockMode.WRITE, ttl = "10s", waitTime = "60s")
		public void rebuild(String id) throws InterruptedException {
			writing();
		}

		@DistributedLocked(name = "report", key = "#id", mode = LockMode.WRITE, ttl = "10s", waitTime = "20s")
		public void rebuildPatiently(String id) throws InterruptedException {
			writing();
		}

		static void reset() {
			readersNow.set(0);
			writersNow.set(0);
			mostReadersAtOnce.set(0);
			readsWhileWriting.set(0);
			writersTogether.set(0);
			writes.set(0);
		}

		private static void reading(long millis) throws InterruptedException {
			int readers = readersNow.incrementAndGet();
			mostReadersAtOnce.accumulateAndGet(readers, Math::max);
			if (writersNow.get() > 0) {
				readsWhileWriting.incrementAndGet();
			}
			Thread.sleep(millis);
			readersNow.decrementAndGet();
		}

		private static void writing() throws InterruptedException {
			if (writersNow.incrementAndGet() > 1) {
				writersTogether.incrementAndGet();
			}
			if (readersNow.get() > 0) {
				readsWhileWriting.incrementAndGet();
			}
			Thread.sleep(2);
			writes.incrementAndGet();
			writersNow.decrementAndGet();
		}

	}

	static class Exports {

		static final AtomicInteger now = new AtomicInteger();

		static final AtomicInteger mostAtOnce = new AtomicInteger();

		static final AtomicInteger runs = new AtomicInteger();

		@DistributedLocked(key = "'exports'", permits = 3, ttl = "10s", waitTime = "60s")
		public void export() throws InterruptedException {
			mostAtOnce.accumulateAndGet(now.incrementAndGet(), Math::max);
			Thread.sleep(5);
			runs.incrementAndGet();
			now.decrementAndGet();
		}

		@DistributedLocked(key = "'reports-export'", permits = 2, ttl = "10s", onFailure = LockFailurePolicy.SKIP)
		public Boolean tryExportOnce() {
			return true;
		}

		@DistributedLocked(key = "'reports-export'", permits = 2, ttl = "10s", waitTime = "20s")
		public Boolean exportWaiting() {
			return true;
		}

	}

}
