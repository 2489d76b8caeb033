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

import io.distlock.faults.proxy.TcpProxy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Steady latency between the clients and Redis, with every round trip well within the
 * command timeout and long critical sections that need their lease renewed.
 */
class LatencyIntegrationTests {

	private static final Duration TTL = Duration.ofMillis(900);

	/**
	 * A slow but healthy connection (100ms each way through the proxy, a nominal round
	 * trip of a fifth of the ttl) loses no lock. It used to lose the first lock of every
	 * client: that acquisition paid for the connection's handshake, for Redis learning
	 * the acquire script (EVALSHA, NOSCRIPT, EVAL) and for a second, dedicated connection
	 * that loaded the other scripts, all while its lease was running, about 2 s through
	 * this proxy against a 900 ms lease. The client now connects and loads its scripts
	 * when it is created, over the shared connection.
	 */
	@Test
	void locksAreNotLostUnderLatencyWithinTheCommandTimeout() throws Exception {
		ScenarioResult result = FaultScenario.named("latency-renewal", 77)
			.proxied()
			.clients(3, 1)
			.keys(3)
			.ttl(TTL)
			.timeout(Duration.ofMillis(1500))
			.waitTime(Duration.ofMillis(1000))
			.work(1000, 1300)
			.duration(Duration.ofSeconds(6))
			.faults((context) -> {
				for (TcpProxy proxy : context.proxies()) {
					proxy.delay(Duration.ofMillis(100));
				}
				context.fault("delay-100ms", "all");
				context.sleep(Duration.ofMillis(500));
				context.measure("redis-round-trip", context.roundTrip(context.proxy(0)).toMillis() + "ms");
				// Keep the latency until the workers are done.
				context.sleepUntil(Duration.ofSeconds(6));
			})
			.run();
		assertThat(result.violations()).as(result.summary()).isZero();
		assertThat(result.report().sections()).isPositive();
		assertThat(result.report().lostSections()).as("locks reported lost under latency alone").isZero();
	}

}
