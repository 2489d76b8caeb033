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
import java.util.ArrayList;
import java.util.List;

import io.distlock.faults.history.History.StorageOp;
import io.distlock.faults.history.History;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client JVM is killed with SIGKILL while it holds locks: its locks must expire after
 * their ttl, go to other clients, and nothing else may break; also when the workers take
 * two keys at once half of the time.
 */
class KillClientIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(1);

	@Test
	void locksOfAKilledHolderExpireAfterTheirTtl() throws Exception {
		killHolder(FaultScenario.named("kill-client", 11).duration(Duration.ofSeconds(5)));
	}

	@Test
	void locksOfAKilledMultiKeyHolderExpireAfterTheirTtl() throws Exception {
		ScenarioResult result = killHolder(
				FaultScenario.named("kill-client-multi", 12).multiKey().duration(Duration.ofSeconds(4)));
		assertThat(result.report().multiHolds()).as("multi-key acquisitions").isGreaterThanOrEqualTo(10);
	}

	private ScenarioResult killHolder(FaultScenario scenario) throws Exception {
		List<String> held = new ArrayList<>();
		ScenarioResult result = scenario.ttl(TTL).faults((context) -> {
			// What the last round killed: in soak mode the plan runs once per round.
			held.clear();
			context.sleepUntil(Duration.ofMillis(1200 + context.random().nextInt(400)));
			held.addAll(context.killHolder(0));
			context.measure("victim-held", held);
		}).run();
		assertThat(result.violations()).as(result.summary()).isZero();
		assertThat(result.report().excusedOverlaps()).as("overlaps excused by a lost lock").isZero();
		assertThat(result.report().toldAtReleaseOverlaps()).as("overlaps told only at release").isZero();
		assertThat(held).as("locks the killed client held").isNotEmpty();
		History history = result.history();
		StorageOp kill = ScenarioAssertions.marks(history, "kill").get(0);
		List<Long> takeovers = new ArrayList<>();
		for (String section : held) {
			String key = section.substring(0, section.indexOf('/'));
			StorageOp next = ScenarioAssertions.firstEntryAfter(history, key, "c0", kill.seq()).orElseThrow();
			takeovers.add((next.micros() - kill.micros()) / 1000);
		}
		FaultScenario.report(List.of("  " + result.name() + " measured: taken over after " + takeovers + "ms (ttl "
				+ TTL.toMillis() + "ms), for " + held));
		// Held up to the ttl (the victim had taken it at most one section's length
		// before),
		// and free within the ttl plus one wait time of the waiters.
		assertThat(takeovers)
			.allSatisfy((millis) -> assertThat(millis).isBetween(TTL.toMillis() / 2, TTL.toMillis() + 1500));
		return result;
	}

}
