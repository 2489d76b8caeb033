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

import io.distlock.faults.history.History.Section;
import io.distlock.faults.history.History.StorageOp;
import io.distlock.faults.history.History;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A holder's JVM is frozen with SIGSTOP for longer than the ttl, as a long stop-the-world
 * pause would: the lock passes to another client; when the paused holder continues, the
 * library tells it that the lock was lost, and the fenced storage rejects its late
 * writes.
 */
class PausedHolderIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(1);

	@Test
	void pausedHolderLearnsItLostTheLockAndItsLateWritesAreRejected() throws Exception {
		List<List<String>> frozenWhileHolding = new ArrayList<>();
		ScenarioResult result = FaultScenario.named("pause-holder", 22)
			.ttl(TTL)
			.duration(Duration.ofSeconds(8))
			.faults((context) -> {
				// What the last round froze: in soak mode the plan runs once per round.
				frozenWhileHolding.clear();
				Duration pause = TTL.multipliedBy(5).dividedBy(2);
				context.sleepUntil(Duration.ofMillis(900 + context.random().nextInt(300)));
				frozenWhileHolding.add(context.freezeHolder(0, pause));
				context.sleep(Duration.ofMillis(600 + context.random().nextInt(300)));
				frozenWhileHolding.add(context.freezeHolder(0, pause));
				context.measure("frozen-holding", frozenWhileHolding);
			})
			.run();
		assertThat(result.violations()).as(result.summary()).isZero();
		assertThat(frozenWhileHolding).allSatisfy((held) -> assertThat(held).isNotEmpty());
		History history = result.history();
		List<StorageOp> freezes = ScenarioAssertions.marks(history, "freeze");
		List<StorageOp> thaws = ScenarioAssertions.marks(history, "thaw");
		assertThat(freezes).hasSize(2);
		List<Section> frozenSections = new ArrayList<>();
		for (int i = 0; i < freezes.size(); i++) {
			long freeze = freezes.get(i).seq();
			long thaw = thaws.get(i).seq();
			// In its section when frozen, and not yet out of it when thawed.
			ScenarioAssertions.sectionsOf(history, "c0")
				.stream()
				.filter((section) -> section.enterSeq() < freeze && (!section.exited() || section.exitSeq() > thaw))
				.forEach(frozenSections::add);
		}
		assertThat(frozenSections).isNotEmpty();
		List<Section> takenOver = frozenSections.stream()
			.filter((section) -> ScenarioAssertions.firstEntryAfter(history, section.key(), "c0", section.enterSeq())
				.filter((entry) -> entry.seq() < section.exitSeq())
				.isPresent())
			.toList();
		FaultScenario.report(List.of("  pause-holder measured: " + frozenSections.size()
				+ " section(s) frozen past the ttl, " + takenOver.size() + " taken over meanwhile, "
				+ result.report().staleRejected() + " stale operation(s) rejected by fencing"));
		assertThat(takenOver).as("frozen sections whose lock another client took meanwhile").isNotEmpty();
		assertThat(takenOver).as("the paused holder was told it lost each of them")
			.allSatisfy((section) -> assertThat(ScenarioAssertions.toldLost(history, section)).isTrue());
		assertThat(result.report().staleRejected()).as("late operations rejected by fencing").isPositive();
	}

	@Test
	void pausedPermitHolderLearnsItLostItsPermitWhichWentToAnotherHolder() throws Exception {
		List<String> frozenWhileHolding = new ArrayList<>();
		ScenarioResult result = FaultScenario.named("pause-permit-holder", 23)
			.permits(2)
			.keys(1)
			.ttl(TTL)
			.duration(Duration.ofSeconds(5))
			.faults((context) -> {
				// What the last round froze: in soak mode the plan runs once per round.
				frozenWhileHolding.clear();
				context.sleepUntil(Duration.ofMillis(900 + context.random().nextInt(300)));
				frozenWhileHolding.addAll(context.freezeHolder(0, TTL.multipliedBy(5).dividedBy(2)));
				context.measure("frozen-holding", frozenWhileHolding);
			})
			.run();
		assertThat(result.violations()).as(result.summary()).isZero();
		assertThat(frozenWhileHolding).as("permits held when frozen").isNotEmpty();
		History history = result.history();
		long freeze = ScenarioAssertions.marks(history, "freeze").get(0).seq();
		long thaw = ScenarioAssertions.marks(history, "thaw").get(0).seq();
		List<Section> frozenSections = ScenarioAssertions.sectionsOf(history, "c0")
			.stream()
			.filter((section) -> section.enterSeq() < freeze && (!section.exited() || section.exitSeq() > thaw))
			.toList();
		FaultScenario.report(List
			.of("  pause-permit-holder measured: " + frozenSections.size() + " permit section(s) frozen past the ttl, "
					+ result.report().excusedOverlaps() + " entries over the limit excused by a lost notice, "
					+ result.report().toldAtReleaseOverlaps() + " told only at release"));
		assertThat(frozenSections).isNotEmpty().allSatisfy((section) -> assertThat(section.isPermit()).isTrue());
		// Frozen for longer than the ttl, every one of them lost its permit in the store,
		// so the library must have told its holder.
		assertThat(frozenSections).as("the paused holder was told it lost each permit")
			.allSatisfy((section) -> assertThat(ScenarioAssertions.toldLost(history, section)).isTrue());
		// The other clients took the expired permits while the paused holder was still in
		// its section: more holders than permits, which the checker let pass only because
		// the paused one was told.
		assertThat(result.report().excusedOverlaps() + result.report().toldAtReleaseOverlaps())
			.as("entries over the limit explained by a lost permit")
			.isPositive();
		assertThat(result.report().maxPermitHolders()).as("most permit holders at once").isGreaterThan(2);
	}

}
