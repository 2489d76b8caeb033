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

package io.distlock.faults;

import java.time.Duration;
import java.util.List;

import io.distlock.faults.history.History.Section;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The workload without faults, single-node and Redlock: the reference the fault scenarios
 * are compared with, and proof that the recording itself finds nothing wrong when nothing
 * goes wrong; also with multi-key locks, permits, and read and write locks.
 */
class BaselineIntegrationTests {

	@Test
	void singleNodeWithoutFaults() throws Exception {
		ScenarioResult result = FaultScenario.named("baseline-single", 1).duration(Duration.ofSeconds(4)).run();
		assertThat(result.violations()).as(result.summary()).isZero();
		assertThat(result.report().excusedOverlaps()).as("overlaps excused by a lost lock").isZero();
		assertThat(result.report().toldAtReleaseOverlaps()).as("overlaps told only at release").isZero();
		assertThat(result.report().unfencedLostUpdates()).as("lost updates without fencing").isZero();
		assertThat(result.report().sections()).isPositive();
	}

	@Test
	void redlockWithoutFaults() throws Exception {
		ScenarioResult result = FaultScenario.named("baseline-redlock", 2)
			.redlock(5)
			.timeout(Duration.ofMillis(200))
			.duration(Duration.ofSeconds(4))
			.run();
		assertThat(result.violations()).as(result.summary()).isZero();
		assertThat(result.report().excusedOverlaps()).as("overlaps excused by a lost lock").isZero();
		assertThat(result.report().toldAtReleaseOverlaps()).as("overlaps told only at release").isZero();
		assertThat(result.report().unfencedLostUpdates()).as("lost updates without fencing").isZero();
		assertThat(result.report().sections()).isPositive();
	}

	@Test
	void multiKeyWithoutFaults() throws Exception {
		ScenarioResult result = FaultScenario.named("baseline-multi", 3)
			.multiKey()
			.duration(Duration.ofSeconds(3))
			.run();
		assertThat(result.violations()).as(result.summary()).isZero();
		assertThat(result.report().excusedOverlaps()).as("overlaps excused by a lost lock").isZero();
		assertThat(result.report().toldAtReleaseOverlaps()).as("overlaps told only at release").isZero();
		assertThat(result.report().unfencedLostUpdates()).as("lost updates without fencing").isZero();
		// Both kinds took the keys, so that the checker saw them exclude each other.
		int multiHolds = result.report().multiHolds();
		assertThat(multiHolds).as("multi-key acquisitions").isGreaterThanOrEqualTo(10);
		assertThat(result.report().sections() - 2 * multiHolds).as("single-key sections").isGreaterThanOrEqualTo(10);
	}

	@Test
	void permitsWithoutFaults() throws Exception {
		ScenarioResult result = FaultScenario.named("baseline-permits", 4)
			.permits(3)
			.keys(1)
			.duration(Duration.ofSeconds(3))
			.run();
		assertThat(result.violations()).as(result.summary()).isZero();
		assertThat(result.report().excusedOverlaps()).as("excess excused by a lost permit").isZero();
		assertThat(result.report().toldAtReleaseOverlaps()).as("excess told only at release").isZero();
		assertThat(result.report().permitSections()).as("permit sections").isGreaterThanOrEqualTo(50);
		// Nine workers for three permits: the limit was reached, and never passed.
		assertThat(result.report().maxPermitHolders()).as("most permit holders at once").isEqualTo(3);
	}

	@Test
	void readWriteWithoutFaults() throws Exception {
		ScenarioResult result = FaultScenario.named("baseline-read-write", 5)
			.readWrite()
			.duration(Duration.ofSeconds(3))
			.run();
		assertThat(result.violations()).as(result.summary()).isZero();
		assertThat(result.report().excusedOverlaps()).as("overlaps excused by a lost lock").isZero();
		assertThat(result.report().toldAtReleaseOverlaps()).as("overlaps told only at release").isZero();
		List<Section> reads = result.history().sections().stream().filter(Section::read).toList();
		assertThat(reads).as("read sections").hasSizeGreaterThanOrEqualTo(20);
		assertThat(result.report().sections() - reads.size()).as("write sections").isGreaterThanOrEqualTo(10);
		// Readers did share a key, which the checker had to let pass.
		assertThat(reads).as("read sections overlapping another reader's on their key")
			.anySatisfy((read) -> assertThat(reads).anyMatch((other) -> other != read && other.key().equals(read.key())
					&& other.enterSeq() > read.enterSeq() && other.enterSeq() < read.exitSeq()));
	}

}
