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

package io.distlock.redlock;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.distlock.store.AcquireResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClockOffsets}, the run-time check of the clock offsets between Redlock
 * nodes: the answers of nodes whose clocks differ are made up here, since the clock of a
 * real redis-server cannot be set apart from the machine's.
 */
class ClockOffsetsTests {

	private static final long NOW = 1_796_000_000_000_000L;

	private static final Duration TTL = Duration.ofSeconds(10);

	private final ClockOffsets offsets = new ClockOffsets();

	@Test
	void theLargestOffsetBetweenTheNodesThatAnsweredIsKeptLessTheRoundsDuration() {
		this.offsets.measure("k", replies(granted(NOW), granted(NOW + 3_000_000), null), TTL, 1_000_000);
		this.offsets.measure("k", replies(granted(NOW), granted(NOW + 1_000_000), granted(NOW)), TTL, 1_000_000);
		assertThat(this.offsets.largest()).isEqualTo(Duration.ofMillis(2_999));
	}

	@Test
	void clocksThatAgreeToWithinTheRoundShowNoOffset() {
		this.offsets.measure("k", replies(granted(NOW), granted(NOW + 500), granted(NOW + 900)), TTL, 1_000_000);
		assertThat(this.offsets.largest()).isZero();
	}

	@Test
	void answersWithoutAClockOrBusyNodesAreNotMeasured() {
		this.offsets.measure("k",
				replies(new AcquireResult.Acquired(NOW), new AcquireResult.Busy(TTL), granted(NOW + 60_000_000)), TTL,
				0);
		assertThat(this.offsets.largest()).isZero();
	}

	@Test
	void anOffsetBelowTheTtlIsNotWarnedOf() {
		assertThat(this.offsets.measure("k", replies(granted(NOW), granted(NOW + 9_000_000)), TTL, 0)).isFalse();
		assertThat(this.offsets.largest()).isEqualTo(Duration.ofSeconds(9));
	}

	@Test
	void anOffsetThatReachesTheTtlIsWarnedOfAgainOnlyOnceItGrowsPastTheOffsetLastWarnedOf() {
		assertThat(this.offsets.measure("k", replies(granted(NOW), granted(NOW + 12_000_000)), TTL, 0)).isTrue();
		assertThat(this.offsets.measure("k", replies(granted(NOW), granted(NOW + 12_000_000)), TTL, 0)).isFalse();
		assertThat(this.offsets.measure("k", replies(granted(NOW), granted(NOW + 11_000_000)), TTL, 0)).isFalse();
		assertThat(this.offsets.measure("k", replies(granted(NOW), granted(NOW + 60_000_000)), TTL, 0)).isTrue();
		assertThat(this.offsets.measure("k", replies(granted(NOW), granted(NOW + 70_000_000)), TTL, 0)).isTrue();
		assertThat(this.offsets.largest()).isEqualTo(Duration.ofSeconds(70));
	}

	@Test
	void anOffsetThatGrowsByLessThanAMillisecondIsNotWarnedOfAgain() {
		assertThat(this.offsets.measure("k", replies(granted(NOW), granted(NOW + 12_000_000)), TTL, 0)).isTrue();
		assertThat(this.offsets.measure("k", replies(granted(NOW), granted(NOW + 12_000_900)), TTL, 0)).isFalse();
	}

	@Test
	void anEarlyOffsetBeyondAShortTtlDoesNotHideALaterOneBeyondALongerTtl() {
		Duration shortTtl = Duration.ofMillis(500);
		assertThat(this.offsets.measure("k", replies(granted(NOW), granted(NOW + 600_000)), shortTtl, 0)).isTrue();
		assertThat(this.offsets.measure("k", replies(granted(NOW), granted(NOW + 15_000_000)), TTL, 0)).isTrue();
	}

	@Test
	void withATtlLongerThanTheShortestRetentionTheRetentionIsTheBound() {
		Duration hour = Duration.ofHours(1);
		assertThat(this.offsets.measure("k", replies(granted(NOW), granted(NOW + 61_000_000)), hour, 0)).isTrue();
	}

	private static AcquireResult.Acquired granted(long clock) {
		return new AcquireResult.Acquired(42, clock);
	}

	private static List<@Nullable Object> replies(@Nullable Object... replies) {
		return Arrays.asList(replies);
	}

}
