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

package io.distlock.redis;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.distlock.store.AcquireResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FencingClockCheck}, the run-time check of how far fencing tokens run
 * ahead of the Redis clock: the answers are made up here, since the clock of a real
 * redis-server cannot be set apart from the machine's.
 */
class FencingClockCheckTests {

	private static final long NOW = 1_796_000_000_000_000L;

	private static final long RETENTION_MILLIS = Duration.ofMinutes(10).toMillis();

	private final FencingClockCheck check = new FencingClockCheck();

	@Test
	void aLeadOfASecondOrLessIsNotWarnedOf() {
		assertThat(this.check.check("k", ahead(Duration.ofMillis(1000)), RETENTION_MILLIS)).isFalse();
		assertThat(this.check.largest()).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void tokensFromTheClockShowNoLead() {
		assertThat(this.check.check("k", new AcquireResult.Acquired(NOW, NOW), RETENTION_MILLIS)).isFalse();
		assertThat(this.check.check("k", new AcquireResult.Acquired(NOW), RETENTION_MILLIS)).isFalse();
		assertThat(this.check.largest()).isZero();
	}

	@Test
	void aLeadAboveASecondIsWarnedOfAgainOnlyOnceItGrowsPastTheLeadLastWarnedOf() {
		assertThat(this.check.check("k", ahead(Duration.ofMillis(1500)), RETENTION_MILLIS)).isTrue();
		assertThat(this.check.check("k", ahead(Duration.ofMillis(1500)), RETENTION_MILLIS)).isFalse();
		assertThat(this.check.check("k", ahead(Duration.ofMillis(1200)), RETENTION_MILLIS)).isFalse();
		// A clock stepped back further: a lead that a lost counter would less likely
		// survive, no longer hidden by the first warning.
		assertThat(this.check.check("k", ahead(Duration.ofMinutes(9)), RETENTION_MILLIS)).isTrue();
		assertThat(this.check.largest()).isEqualTo(Duration.ofMinutes(9));
	}

	@Test
	void aLeadThatGrowsByLessThanAMillisecondIsNotWarnedOfAgain() {
		assertThat(this.check.check("k", ahead(Duration.ofMillis(1500)), RETENTION_MILLIS)).isTrue();
		assertThat(this.check.check("k", ahead(Duration.ofNanos(1_500_900_000)), RETENTION_MILLIS)).isFalse();
	}

	private static AcquireResult.Acquired ahead(Duration lead) {
		return new AcquireResult.Acquired(NOW + lead.toNanos() / 1000, NOW);
	}

}
