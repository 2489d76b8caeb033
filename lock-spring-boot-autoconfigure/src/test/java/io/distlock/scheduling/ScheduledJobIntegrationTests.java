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

package io.distlock.scheduling;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.LockAcquisitionException;
import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;
import io.distlock.annotation.LockFailurePolicy;
import io.distlock.redis.RedisLockClient;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.util.ErrorHandler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@code @Scheduled} jobs under {@link DistributedLocked}, run by
 * several application contexts on one real redis-server, each with its own connections,
 * template and scheduler, as instances of a service would be: the job runs once per
 * period across them, a busy run is skipped without an error, and a job longer than its
 * ttl keeps its lock.
 */
@Timeout(120)
@ExtendWith(OutputCaptureExtension.class)
class ScheduledJobIntegrationTests {

	private static final String SKIPPED = "Skipped '";

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@BeforeEach
	void resetRecords() {
		ReportJob.executions.clear();
		FailureJobs.quietRuns.set(0);
		FailureJobs.loudRuns.set(0);
		LongJob.runs.clear();
		LongJob.inside.set(0);
		LongJob.overlaps.set(0);
	}

	@AfterEach
	void closeContexts() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void givenThreeInstancesOneWithASkewedClockThenTheJobRunsExactlyOncePerPeriod(CapturedOutput output) {
		start(ReportJobApplication.class, "first", "test.clock-skew=0");
		start(ReportJobApplication.class, "second", "test.clock-skew=0");
		// This instance's clock is ahead: its runs fire 150ms before those of the
		// others, which finds the lock free once the job is done, unless minHold keeps
		// it held.
		start(ReportJobApplication.class, "skewed", "test.clock-skew=150");
		long from = System.nanoTime();
		long periods = 15;
		long until = from + ReportJob.PERIOD.multipliedBy(periods).toNanos();
		await().atMost(Duration.ofSeconds(30)).until(() -> System.nanoTime() > until);

		List<Execution> executions = List.copyOf(ReportJob.executions);
		// Never twice in one period: two runs are at least minHold apart. A run is
		// recorded a little after its lock was taken (which is when minHold starts),
		// so a late record may shorten a gap by a few milliseconds: 50ms are allowed
		// for that, far from the 150ms of the skew or the ~0ms of two instances firing
		// together.
		for (int i = 1; i < executions.size(); i++) {
			long gap = Duration.ofNanos(executions.get(i).nanoTime() - executions.get(i - 1).nanoTime()).toMillis();
			assertThat(gap).as("gap between %s and %s", executions.get(i - 1), executions.get(i))
				.isGreaterThanOrEqualTo(ReportJob.MIN_HOLD.toMillis() - 50);
		}
		// And once in every period: as many runs as periods elapsed, give or take the
		// one at either end of the window.
		long inWindow = executions.stream()
			.filter((execution) -> execution.nanoTime() >= from && execution.nanoTime() < until)
			.count();
		assertThat(inWindow).isBetween(periods - 1, periods + 1);
		// Every instance fired, and the busy ones were turned away quietly.
		assertThat(skips(output, ReportJob.class, "report")).isPositive();
		assertThat(errors()).isEmpty();
	}

	@Test
	void givenABusyLockThenAScheduledRunIsSkippedQuietlyUnlessTheMethodAsksToThrow(CapturedOutput output) {
		LettuceConnectionFactory connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		try {
			// Another instance is running both jobs.
			LockTemplate otherInstance = new LockTemplate(new RedisLockClient(connectionFactory));
			LockHandle quiet = otherInstance.tryAcquire(FailureJobs.QUIET_KEY, Duration.ofSeconds(30), Duration.ZERO)
				.orElseThrow();
			LockHandle loud = otherInstance.tryAcquire(FailureJobs.LOUD_KEY, Duration.ofSeconds(30), Duration.ZERO)
				.orElseThrow();
			start(FailureJobsApplication.class, "instance");

			await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
				assertThat(errors()).hasSizeGreaterThanOrEqualTo(3);
				assertThat(skips(output, FailureJobs.class, "quiet")).isGreaterThanOrEqualTo(3);
			});
			// Only the job with onFailure = THROW failed, each time with the busy lock.
			assertThat(errors()).allSatisfy((error) -> assertThat(error).isInstanceOf(LockAcquisitionException.class)
				.extracting((ex) -> ((LockAcquisitionException) ex).getKey())
				.isEqualTo(FailureJobs.LOUD_KEY));
			assertThat(FailureJobs.quietRuns).hasValue(0);
			assertThat(FailureJobs.loudRuns).hasValue(0);

			// Once the other instance is done, both run: they were turned away by the
			// lock only.
			quiet.close();
			loud.close();
			await().atMost(Duration.ofSeconds(20))
				.until(() -> FailureJobs.quietRuns.get() > 0 && FailureJobs.loudRuns.get() > 0);
		}
		finally {
			connectionFactory.destroy();
		}
	}

	@Test
	void givenAJobLongerThanItsTtlThenItKeepsItsLockAndTheOtherInstanceSkips(CapturedOutput output) {
		start(LongJobApplication.class, "first");
		start(LongJobApplication.class, "second");

		await().atMost(Duration.ofSeconds(30)).until(() -> LongJob.runs.size() >= 3);

		// Each run holds the lock three times its ttl, renewed meanwhile: the other
		// instance's runs, every 200ms, are skipped instead of entering.
		assertThat(LongJob.overlaps).hasValue(0);
		List<Run> runs = List.copyOf(LongJob.runs);
		for (int i = 1; i < runs.size(); i++) {
			assertThat(runs.get(i).startNanos()).as("%s starts after %s ended", runs.get(i), runs.get(i - 1))
				.isGreaterThanOrEqualTo(runs.get(i - 1).endNanos());
		}
		assertThat(skips(output, LongJob.class, "run")).isPositive();
		assertThat(output.getOut()).doesNotContain("was lost while held");
		assertThat(errors()).isEmpty();
	}

	private void start(Class<?> application, String name, String... properties) {
		List<String> all = new ArrayList<>(List.of(properties));
		all.addAll(List.of("spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port(), "spring.data.redis.timeout=2s",
				"spring.application.name=" + name, "spring.main.banner-mode=off",
				"logging.level.io.distlock.interceptor.LockInterceptor=DEBUG"));
		this.contexts.add(new SpringApplicationBuilder(application).web(WebApplicationType.NONE)
			.properties(all.toArray(String[]::new))
			.run());
	}

	// Skipped runs are logged at DEBUG, naming the method.
	private static long skips(CapturedOutput output, Class<?> job, String method) {
		String name = job.getName() + "." + method + "(";
		return output.getOut().lines().filter((line) -> line.contains(SKIPPED) && line.contains(name)).count();
	}

	private List<Throwable> errors() {
		return this.contexts.stream()
			.flatMap((context) -> context.getBean(RecordedErrors.class).errors.stream())
			.toList();
	}

	/**
	 * What reached the scheduler's error handler.
	 */
	static class RecordedErrors implements ErrorHandler {

		final List<Throwable> errors = new CopyOnWriteArrayList<>();

		@Override
		public void handleError(Throwable error) {
			this.errors.add(error);
		}

	}

	/**
	 * A scheduler that starts fixed-rate tasks on the boundaries of their period on its
	 * own clock, as instances do whose schedules follow their wall clocks. A plain
	 * {@link ThreadPoolTaskScheduler} starts a fixed-rate task when its application
	 * starts and reads its clock only to subtract it again, so a skewed clock would not
	 * show; here an instance whose clock is ahead fires every run that much earlier in
	 * real time than the others.
	 */
	static class WallClockAlignedTaskScheduler extends ThreadPoolTaskScheduler {

		@Override
		public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration period) {
			long periodMillis = period.toMillis();
			long nextBoundary = (getClock().millis() / periodMillis + 1) * periodMillis;
			return scheduleAtFixedRate(task, Instant.ofEpochMilli(nextBoundary), period);
		}

	}

	record Execution(String instance, long nanoTime) {

	}

	record Run(String instance, long startNanos, long endNanos) {

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableScheduling
	static class ReportJobApplication {

		@Bean
		RecordedErrors recordedErrors() {
			return new RecordedErrors();
		}

		@Bean
		ThreadPoolTaskScheduler taskScheduler(@Value("${test.clock-skew}") long skewMillis, RecordedErrors errors) {
			WallClockAlignedTaskScheduler scheduler = new WallClockAlignedTaskScheduler();
			scheduler.setClock(Clock.offset(Clock.systemUTC(), Duration.ofMillis(skewMillis)));
			scheduler.setErrorHandler(errors);
			return scheduler;
		}

		@Bean
		ReportJob reportJob(@Value("${spring.application.name}") String instance) {
			return new ReportJob(instance);
		}

	}

	static class ReportJob {

		static final Duration PERIOD = Duration.ofMillis(400);

		static final Duration MIN_HOLD = Duration.ofMillis(300);

		static final List<Execution> executions = new CopyOnWriteArrayList<>();

		private final String instance;

		ReportJob(String instance) {
			this.instance = instance;
		}

		// No key: one lock for the method, shared by every instance.
		@Scheduled(fixedRate = 400)
		@DistributedLocked(minHold = "300ms")
		public void report() throws InterruptedException {
			executions.add(new Execution(this.instance, System.nanoTime()));
			// The work: much shorter than the period.
			Thread.sleep(10);
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableScheduling
	static class FailureJobsApplication {

		@Bean
		RecordedErrors recordedErrors() {
			return new RecordedErrors();
		}

		@Bean
		ThreadPoolTaskScheduler taskScheduler(RecordedErrors errors) {
			ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
			scheduler.setErrorHandler(errors);
			return scheduler;
		}

		@Bean
		FailureJobs failureJobs() {
			return new FailureJobs();
		}

	}

	static class FailureJobs {

		static final String QUIET_KEY = FailureJobs.class.getName() + ".quiet";

		static final String LOUD_KEY = FailureJobs.class.getName() + ".loud";

		static final AtomicInteger quietRuns = new AtomicInteger();

		static final AtomicInteger loudRuns = new AtomicInteger();

		@Scheduled(fixedRate = 100)
		@DistributedLocked
		public void quiet() {
			quietRuns.incrementAndGet();
		}

		@Scheduled(fixedRate = 100)
		@DistributedLocked(onFailure = LockFailurePolicy.THROW)
		public void loud() {
			loudRuns.incrementAndGet();
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableScheduling
	static class LongJobApplication {

		@Bean
		RecordedErrors recordedErrors() {
			return new RecordedErrors();
		}

		@Bean
		ThreadPoolTaskScheduler taskScheduler(RecordedErrors errors) {
			ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
			scheduler.setErrorHandler(errors);
			return scheduler;
		}

		@Bean
		LongJob longJob(@Value("${spring.application.name}") String instance) {
			return new LongJob(instance);
		}

	}

	static class LongJob {

		static final List<Run> runs = new CopyOnWriteArrayList<>();

		static final AtomicInteger inside = new AtomicInteger();

		static final AtomicInteger overlaps = new AtomicInteger();

		private final String instance;

		LongJob(String instance) {
			this.instance = instance;
		}

		// Runs three times as long as its ttl: renewal keeps the lock.
		@Scheduled(fixedRate = 200)
		@DistributedLocked(ttl = "500ms")
		public void run() {
			if (inside.incrementAndGet() > 1) {
				overlaps.incrementAndGet();
			}
			long start = System.nanoTime();
			try {
				Thread.sleep(1500);
			}
			catch (InterruptedException ex) {
				// The application is closing.
				Thread.currentThread().interrupt();
				return;
			}
			finally {
				inside.decrementAndGet();
			}
			runs.add(new Run(this.instance, start, System.nanoTime()));
		}

	}

}
