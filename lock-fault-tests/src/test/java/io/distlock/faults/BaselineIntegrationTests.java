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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The workload without faults, single-node and Redlock: the reference the fault scenarios
 * are compared with, and proof that the recording itself finds nothing wrong when nothing
 * goes wrong.
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

}
