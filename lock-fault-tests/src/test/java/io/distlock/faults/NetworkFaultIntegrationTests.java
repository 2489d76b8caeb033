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

import io.distlock.faults.proxy.TcpProxy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Network faults between each client JVM and the single lock Redis, through a
 * {@link TcpProxy} per client: added latency, connections dropped at random (loss), a
 * holder's connections stalled for longer than the ttl (a partition that heals and then
 * delivers everything late), and a latency spike above the command timeout.
 */
class NetworkFaultIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(1);

	@Test
	void latencyLossAndStalledConnections() throws Exception {
		ScenarioResult result = FaultScenario.named("network", 66)
			.proxied()
			.ttl(TTL)
			.timeout(Duration.ofMillis(500))
			.duration(Duration.ofSeconds(9))
			.faults((context) -> {
				context.sleepUntil(Duration.ofMillis(500));
				for (TcpProxy proxy : context.proxies()) {
					proxy.delay(Duration.ofMillis(60));
				}
				context.fault("delay-60ms", "all");
				context.sleepUntil(Duration.ofMillis(2000));
				context.proxies().forEach((proxy) -> proxy.delay(Duration.ZERO));
				int drops = 0;
				while (context.elapsed().toMillis() < 3600) {
					int client = context.random().nextInt(context.proxies().size());
					drops += context.proxy(client).dropConnections();
					context.fault("drop", "c" + client);
					context.sleep(Duration.ofMillis(150 + context.random().nextInt(200)));
				}
				context.measure("connections-dropped", drops);
				List<String> stalled = context.stallHolder(0, TTL.multipliedBy(2));
				context.measure("stalled-in-section", stalled);
				context.sleepUntil(Duration.ofMillis(6800));
				context.proxy(1).delay(Duration.ofMillis(400));
				context.fault("delay-400ms", "c1");
				context.sleep(Duration.ofSeconds(1));
				context.proxy(1).delay(Duration.ZERO);
			})
			.run();
		assertThat(result.violations()).as(result.summary()).isZero();
		assertThat(result.report().sections()).isPositive();
		assertThat((List<?>) result.measurements().get("stalled-in-section"))
			.as("the stall caught a holder in its section")
			.isNotEmpty();
	}

}
