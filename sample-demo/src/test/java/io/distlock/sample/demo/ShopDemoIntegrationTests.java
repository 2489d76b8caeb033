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

package io.distlock.sample.demo;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's scenario at a smaller size: two nodes (separate JVMs started from the demo's
 * jar) sharing one embedded Redis, 40 buyers at once for 10 units.
 */
class ShopDemoIntegrationTests {

	@Test
	void lockedPurchasesNeverOversellAcrossJvms() throws Exception {
		ByteArrayOutputStream output = new ByteArrayOutputStream();
		DemoOptions options = new DemoOptions(2, 40, 10, true, List.of());
		DemoResult result;
		try (Demo demo = new Demo(options, nodeCommand(), new PrintStream(output, true, StandardCharsets.UTF_8))) {
			result = demo.run();
		}
		String report = output.toString(StandardCharsets.UTF_8);
		System.out.println(report);

		RaceResult locked = result.locked();
		assertThat(locked.failed()).isZero();
		assertThat(locked.oversold()).isZero();
		assertThat(locked.sold()).isEqualTo(locked.product().sold()).isLessThanOrEqualTo(10);
		assertThat(locked.product().stock() + locked.product().sold()).isEqualTo(10);
		assertThat(locked.lostUpdates()).isZero();
		assertThat(locked.product().staleWritesRejected()).isZero();
		assertThat(locked.fencingTokensIncrease()).isTrue();
		assertThat(locked.sales()).extracting(Sale::node).containsOnly("node-1", "node-2");

		// A race without the lock: it may or may not oversell, but every buyer is
		// answered and every sale is recorded.
		RaceResult unlocked = result.unlocked();
		assertThat(unlocked.failed()).isZero();
		assertThat(unlocked.lockBusy()).isZero();
		assertThat(unlocked.sold()).isEqualTo(unlocked.product().sold());
		assertThat(unlocked.fencingTokens()).isEmpty();

		LongWorkResult longWork = result.longWork();
		assertThat(longWork).isNotNull();
		assertThat(longWork.stocktake().heldThroughout()).isTrue();
		assertThat(longWork.stocktake().node()).isEqualTo("node-1");
		assertThat(longWork.stocktake().tookMillis()).isGreaterThanOrEqualTo(5000);
		// Every second of the work, the lease was renewed before it ran out.
		assertThat(longWork.leaseLeftMillis()).hasSizeGreaterThanOrEqualTo(4).allMatch((pttl) -> pttl > 0);
		assertThat(longWork.log()).hasSize(5).allMatch((line) -> line.contains("held: true"));
		// The locks endpoint of node-1 showed the stocktake's lock while it worked.
		assertThat(longWork.heldLocks()).anySatisfy((lock) -> {
			assertThat(lock.key()).isEqualTo("product:" + longWork.stocktake().productId());
			assertThat(lock.fencingToken()).isEqualTo(longWork.stocktake().fencingToken());
			assertThat(lock.autoRenew()).isTrue();
		});
		assertThat(longWork.purchaseNode()).isEqualTo("node-2");
		assertThat(longWork.purchaseStatus()).isEqualTo(200);
		assertThat(longWork.purchaseAnswered().toMillis()).isGreaterThanOrEqualTo(longWork.stocktake().tookMillis());
		assertThat(longWork.isSafe()).isTrue();

		assertThat(result.isSafe()).isTrue();
		// The report says what its terms mean, and prints no JSON.
		assertThat(report)
			.contains("lost stock updates: sales the stock counter does not show",
					"each is the Redis clock in microseconds")
			.doesNotContain("{\"");
		assertThat(report).contains("PASS: the locked runs kept the data right.",
				"Stopped node-1, node-2 and the embedded redis-server.");
		assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)).isEmpty();
	}

	// The jar demo.sh runs, as the build passes it; in an IDE, this JVM's class path.
	private static NodeCommand nodeCommand() {
		String jar = System.getProperty("demo.jar");
		return (jar != null) ? NodeCommand.jar(Path.of(jar)) : NodeCommand.current();
	}

}
