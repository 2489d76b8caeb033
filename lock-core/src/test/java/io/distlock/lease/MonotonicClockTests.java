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

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link MonotonicClock}.
 */
class MonotonicClockTests {

	@Test
	void clockStartsAtTheWallClockTime() {
		Instant before = Instant.now();
		Instant instant = new MonotonicClock().instant();
		assertThat(instant).isBetween(before, Instant.now().plusMillis(1));
	}

	@Test
	void clockAdvancesWithTheElapsedTime() throws Exception {
		Clock clock = new MonotonicClock();
		Instant first = clock.instant();
		Thread.sleep(20);
		assertThat(Duration.between(first, clock.instant())).isGreaterThanOrEqualTo(Duration.ofMillis(20));
	}

	@Test
	void clockInAnotherZoneKeepsTheSameTimeline() {
		Clock clock = new MonotonicClock();
		Clock paris = clock.withZone(ZoneId.of("Europe/Paris"));
		Instant first = clock.instant();
		Instant inParis = paris.instant();
		assertThat(inParis).isBetween(first, clock.instant());
		assertThat(paris.getZone()).isEqualTo(ZoneId.of("Europe/Paris"));
	}

}
