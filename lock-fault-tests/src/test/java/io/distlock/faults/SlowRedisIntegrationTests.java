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

import io.distlock.test.RedisServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The single lock Redis slowed and its connections dropped, without losing data: frozen
 * with SIGSTOP shorter and longer than the ttl, blocked by {@code DEBUG SLEEP}, and every
 * client connection killed with {@code CLIENT KILL}. Commands time out (the client's
 * command timeout is shorter than the ttl); mutual exclusion, fencing and the waiters'
 * deadlines must hold.
 */
class SlowRedisIntegrationTests {

	private static final Duration TTL = Duration.ofSeconds(1);

	@Test
	void slowFrozenAndDisconnectedRedis() throws Exception {
		ScenarioResult result = FaultScenario.named("slow-redis", 55)
			.ttl(TTL)
			.timeout(Duration.ofMillis(500))
			.duration(Duration.ofSeconds(8))
			.faults((context) -> {
				RedisServer redis = context.lockServer(0);
				context.sleepUntil(Duration.ofMillis(700 + context.random().nextInt(200)));
				redis.pause();
				context.fault("sigstop-700ms", "redis");
				context.sleep(Duration.ofMillis(700));
				redis.resume();
				context.sleepUntil(Duration.ofMillis(2000 + context.random().nextInt(200)));
				redis.debugSleep(Duration.ofMillis(600));
				context.fault("debug-sleep-600ms", "redis");
				context.sleepUntil(Duration.ofMillis(3200 + context.random().nextInt(200)));
				clientKill(context, redis);
				context.sleepUntil(Duration.ofMillis(4000 + context.random().nextInt(200)));
				redis.pause();
				context.fault("sigstop-1500ms", "redis");
				context.sleep(Duration.ofMillis(1500));
				redis.resume();
				context.sleepUntil(Duration.ofMillis(6200 + context.random().nextInt(200)));
				clientKill(context, redis);
			})
			.run();
		assertThat(result.violations()).as(result.summary()).isZero();
		assertThat(result.report().errors()).as("attempts that timed out").isPositive();
		assertThat(result.report().sections()).isPositive();
	}

	private static void clientKill(ScenarioContext context, RedisServer redis) {
		Object normal = redis.command("CLIENT", "KILL", "TYPE", "normal");
		Object pubsub = redis.command("CLIENT", "KILL", "TYPE", "pubsub");
		context.fault("client-kill", "redis");
		context.measure("connections-killed-" + context.faults(), normal + "+" + pubsub);
	}

}
