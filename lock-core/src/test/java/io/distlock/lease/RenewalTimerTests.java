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

package io.distlock.lease;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.core.task.TaskRejectedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RenewalTimer}, on a {@link ManualTaskScheduler}.
 */
class RenewalTimerTests {

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	private final ManualTaskScheduler scheduler = new ManualTaskScheduler(T0);

	private final List<Instant> runs = new CopyOnWriteArrayList<>();

	@Test
	void tickThatThrowsAnErrorRunsAgainAHundredMillisecondsLater() {
		RenewalTimer timer = new RenewalTimer(this.scheduler, () -> {
			this.runs.add(this.scheduler.now());
			throw new Error("broken tick");
		});
		timer.runNoLaterThan(T0.plusMillis(10));
		this.scheduler.advance(Duration.ofMillis(250));
		assertThat(this.runs).containsExactly(T0.plusMillis(10), T0.plusMillis(110), T0.plusMillis(210));
	}

	@Test
	void eachRunIsFollowedByOneAtTheInstantTheTickReturns() {
		RenewalTimer timer = new RenewalTimer(this.scheduler, () -> {
			this.runs.add(this.scheduler.now());
			return (this.runs.size() < 3) ? this.scheduler.now().plusMillis(30) : null;
		});
		timer.runNoLaterThan(T0.plusMillis(10));
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.runs).containsExactly(T0.plusMillis(10), T0.plusMillis(40), T0.plusMillis(70));
		assertThat(this.scheduler.pendingTasks()).isZero();
	}

	@Test
	void runAskedForLaterThanThePendingOneIsCoveredByIt() {
		RenewalTimer timer = new RenewalTimer(this.scheduler, this::record);
		timer.runNoLaterThan(T0.plusMillis(10));
		timer.runNoLaterThan(T0.plusMillis(20));
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.runs).containsExactly(T0.plusMillis(10));
	}

	@Test
	void runAskedForSoonerButRejectedLeavesThePendingOneInPlace() {
		RenewalTimer timer = new RenewalTimer(this.scheduler, this::record);
		timer.runNoLaterThan(T0.plusMillis(100));
		this.scheduler.reject(true);
		assertThatExceptionOfType(TaskRejectedException.class)
			.isThrownBy(() -> timer.runNoLaterThan(T0.plusMillis(50)));
		this.scheduler.reject(false);
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.runs).containsExactly(T0.plusMillis(100));
	}

	@Test
	void runWhoseSuccessorIsRejectedIsFollowedByTheNextOneAskedFor() {
		RenewalTimer timer = new RenewalTimer(this.scheduler, () -> {
			this.runs.add(this.scheduler.now());
			return this.scheduler.now().plusMillis(30);
		});
		timer.runNoLaterThan(T0.plusMillis(10));
		this.scheduler.reject(true);
		this.scheduler.advance(Duration.ofMillis(100));
		this.scheduler.reject(false);
		timer.runNoLaterThan(T0.plusMillis(150));
		this.scheduler.advance(Duration.ofMillis(100));
		assertThat(this.runs).containsExactly(T0.plusMillis(10), T0.plusMillis(150), T0.plusMillis(180));
	}

	@Test
	void stoppedTimerNoLongerRuns() {
		RenewalTimer timer = new RenewalTimer(this.scheduler, this::record);
		timer.runNoLaterThan(T0.plusMillis(10));
		timer.stop();
		timer.runNoLaterThan(T0.plusMillis(20));
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.runs).isEmpty();
		assertThat(this.scheduler.pendingTasks()).isZero();
	}

	private @Nullable Instant record() {
		this.runs.add(this.scheduler.now());
		return null;
	}

}
