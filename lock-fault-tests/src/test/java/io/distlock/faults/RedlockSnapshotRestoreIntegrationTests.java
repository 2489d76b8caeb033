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

import io.distlock.faults.history.History.StorageOp;
import io.distlock.faults.history.Violation;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redlock nodes that come back, after Redlock's delayed restart, from a snapshot older
 * than their last grants (an RDB file written by {@code SAVE} some time before the node
 * was killed): their fencing counters are below the tokens handed out since. Under the
 * documented assumptions (docs/redlock.md: the clocks agree, here one machine's, and the
 * node stays down the longest ttl plus 100 ms) no two acquisitions of a key may get the
 * same token, and no section may enter after another one left with a token that is not
 * greater.
 */
class RedlockSnapshotRestoreIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(1);

	/**
	 * Redlock's delayed restart as docs/redlock.md requires it, with some margin.
	 */
	private static final Duration RESTART_DELAY = TTL.plusMillis(300);

	/**
	 * How long the nodes go on granting between the snapshot and the kill: the grants the
	 * restored node forgets.
	 */
	private static final Duration FORGOTTEN = Duration.ofMillis(700);

	private static final int RESTARTS = 3;

	@Test
	void redlockNodesRestoredFromAnOlderSnapshotAfterTheDelayRepeatNoTokenAndNeverGoBack() throws Exception {
		ScenarioResult result = FaultScenario.named("restore-redlock-snapshot", 74)
			.redlock(3)
			.timeout(Duration.ofMillis(200))
			.ttl(TTL)
			.work(50, 300)
			.duration(Duration.ofSeconds(14))
			.faults((context) -> {
				// Each node in turn is restored from a snapshot older than its last
				// grants,
				// and the next majority has no node in common with the last grants'
				// majority but the restored one: the third node was frozen meanwhile and
				// kept its older counter.
				for (int round = 0; round < RESTARTS; round++) {
					context.sleepUntil(Duration.ofMillis(800 + round * 4000 + context.random().nextInt(300)));
					RedisServer restored = context.lockServer(round % 3);
					RedisServer frozen = context.lockServer((round + 1) % 3);
					RedisServer third = context.lockServer((round + 2) % 3);
					assertThat(restored.command("SAVE")).isEqualTo("OK");
					context.note("snapshot", "redis-" + restored.port());
					frozen.pause();
					context.fault("pause", "redis-" + frozen.port());
					// Grants on the restored node and the third that the snapshot lacks.
					context.sleep(FORGOTTEN);
					restored.kill();
					context.fault("kill", "redis-" + restored.port());
					context.sleep(RESTART_DELAY);
					restored.restart();
					context.note("restored", "redis-" + restored.port());
					third.pause();
					frozen.resume();
					context.fault("pause", "redis-" + third.port());
					// Grants on the restored node and the formerly frozen one alone.
					context.sleep(Duration.ofMillis(1000));
					third.resume();
					context.note("resumed", "redis-" + third.port());
				}
			})
			.run();
		assertThat(result.violations()).as(result.summary()).isZero();
		assertThat(result.report().count(Violation.DUPLICATE_TOKEN)).as(result.summary()).isZero();
		assertThat(result.report().count(Violation.TOKEN_REGRESSION)).as(result.summary()).isZero();
		assertThat(result.report().decreasingTokens()).as(result.summary()).isZero();
		assertThat(result.report().excusedOverlaps()).as("overlaps, even of holders told they lost the lock").isZero();
		List<StorageOp> restores = ScenarioAssertions.marks(result.history(), "restored");
		assertThat(restores).as("restores").hasSize(RESTARTS);
		long lastRestore = restores.get(RESTARTS - 1).seq();
		assertThat(result.history().sections()).as("sections after the last restore")
			.anySatisfy((section) -> assertThat(section.enterSeq()).isGreaterThan(lastRestore));
	}

}
