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

package io.distlock.redlock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import io.distlock.LockMode;
import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;
import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.autoconfigure.DistLockMetricsAutoConfiguration;
import io.distlock.interceptor.UnsupportedLockOperationException.Feature;
import io.distlock.interceptor.UnsupportedLockOperationException;
import io.distlock.redis.RedisReleaseNotifier;
import io.distlock.store.LockClient;
import io.distlock.test.CriticalSections;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redlock configured from {@code distlock.redlock.*} in real application contexts, on
 * five real redis-server processes, with the application's own Redis on a sixth.
 */
class RedlockAutoConfigurationIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.servers(6);

	private ApplicationContextRunner contextRunner() {
		RedisServer application = redis.server(5);
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + application.host(),
					"spring.data.redis.port=" + application.port(),
					"distlock.redlock.nodes=" + String.join(",", redis.uris().subList(0, 5)),
					"distlock.redlock.node-timeout=200ms");
	}

	@Test
	void nodesPutEveryLockOnRedlockWhileSpringDataRedisServesTheRest() {
		contextRunner().run((context) -> {
			assertThat(context).getBean(LockClient.class).isInstanceOf(RedlockClient.class);
			assertThat(context).doesNotHaveBean(RedisReleaseNotifier.class);
			context.getBean(LockTemplate.class).execute("k", Duration.ofSeconds(10), Duration.ZERO, () -> {
				for (int i = 0; i < 5; i++) {
					assertThat(redis.endpoint(i).command("EXISTS", "lock:k")).isEqualTo(1L);
				}
				assertThat(redis.endpoint(5).command("EXISTS", "lock:k")).isEqualTo(0L);
				return null;
			});
			context.getBean(StringRedisTemplate.class).opsForValue().set("app-data", "v");
			assertThat(redis.endpoint(5).command("GET", "app-data")).isEqualTo("v");
		});
	}

	@Test
	void givenRedlockWhenMethodsAskForReadLocksOrPermitsThenTheStartupFailsNamingThem() {
		contextRunner().withBean(ReadingReports.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOfSatisfying(UnsupportedLockOperationException.class,
						(ex) -> assertThat(ex.getFeature()).isEqualTo(Feature.READ_LOCKS))
				.hasMessageContaining(ReadingReports.class.getName() + ".read(java.lang.String)")
				.hasMessageContaining("has no read locks (Redlock has none)");
		});
		contextRunner().withBean(LimitedExports.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOfSatisfying(UnsupportedLockOperationException.class,
						(ex) -> assertThat(ex.getFeature()).isEqualTo(Feature.PERMITS))
				.hasMessageContaining(LimitedExports.class.getName() + ".export()");
		});
	}

	@Test
	void givenRedlockWhenAMethodLocksSeveralKeysOrWritesThenEveryKeyIsARedlock() {
		contextRunner().withBean(Transfers.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(Transfers.class).transfer(2, 1)).isEqualTo(5);
		});
	}

	@Test
	void meterRegistryGetsTheGaugeOfTheNodesClockOffsetMeasuredByTheirGrants() {
		contextRunner().withConfiguration(AutoConfigurations.of(DistLockMetricsAutoConfiguration.class))
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> {
				context.getBean(LockTemplate.class).execute("k", Duration.ofSeconds(10), Duration.ZERO, () -> 1);
				TimeGauge offset = context.getBean(MeterRegistry.class)
					.find("distlock.redlock.clock.offset")
					.timeGauge();
				assertThat(offset).isNotNull();
				// The nodes share this machine's clock.
				assertThat(offset.value(TimeUnit.SECONDS)).isLessThan(1.0);
			});
	}

	@Test
	void fencingCounterRetentionReachesEveryNode() {
		Duration retention = Duration.ofMinutes(3);
		contextRunner().withPropertyValues("distlock.fencing-counter-retention=" + retention.toMinutes() + "m")
			.run((context) -> {
				context.getBean(LockTemplate.class).execute("k", Duration.ofSeconds(10), Duration.ZERO, () -> null);
				for (int i = 0; i < 5; i++) {
					// The fencing counter of lock:k, see RedisLockKeys.
					assertThat((Long) redis.endpoint(i).command("PTTL", "{lock:k}\u001ffence\u001flock:k"))
						.isBetween(retention.minusSeconds(5).toMillis(), retention.toMillis());
				}
			});
	}

	@Test
	void nodesGivenAsAYamlListAreUsed() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class))
			.withPropertyValues("distlock.redlock.nodes[0]=" + redis.uris().get(0),
					"distlock.redlock.nodes[1]=" + redis.uris().get(1),
					"distlock.redlock.nodes[2]=" + redis.uris().get(2))
			.run((context) -> assertThat(context).getBean(LockClient.class).isInstanceOf(RedlockClient.class));
	}

	@Test
	void fewerThanThreeNodesFailTheStartupWithAClearMessage() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class))
			.withPropertyValues("distlock.redlock.nodes=" + redis.uris().get(0) + "," + redis.uris().get(1))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("distlock.redlock.nodes lists 2 nodes, but Redlock needs at least 3"));
	}

	@Test
	void invalidNodeUrlFailsTheStartupWithoutShowingItsPassword() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class))
			.withPropertyValues("distlock.redlock.nodes=" + redis.uris().get(0) + "," + redis.uris().get(1)
					+ ",redis://:s3cret@host:notaport")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("distlock.redlock.nodes[2]")
				.hasMessageNotContaining("s3cret"));
	}

	@Test
	void sixteenThreadsInTwoApplicationsNeverOverlap() {
		contextRunner().run((first) -> contextRunner().run((second) -> {
			List<LockTemplate> templates = List.of(first.getBean(LockTemplate.class),
					second.getBean(LockTemplate.class));
			AtomicInteger calls = new AtomicInteger();
			CriticalSections sections = CriticalSections.run(16, 10,
					(section) -> templates.get(calls.getAndIncrement() % 2)
						.execute("counter", Duration.ofSeconds(10), Duration.ofSeconds(60), () -> {
							section.run();
							return null;
						}));
			assertThat(sections.overlaps()).isZero();
			assertThat(sections.count()).isEqualTo(160);
		}));
	}

	static class ReadingReports {

		@DistributedLocked(key = "#id", mode = LockMode.READ)
		public void read(String id) {
		}

		@DistributedLocked(key = "#id", mode = LockMode.WRITE)
		public void rebuild(String id) {
		}

	}

	static class LimitedExports {

		@DistributedLocked(key = "'exports'", permits = 5)
		public void export() {
		}

	}

	static class Transfers {

		@DistributedLocked(keys = { "'account:' + #from", "'account:' + #to" }, mode = LockMode.WRITE)
		public int transfer(long from, long to) {
			int held = 0;
			for (int i = 0; i < 5; i++) {
				if (redis.endpoint(i).command("EXISTS", "lock:account:1").equals(1L)
						&& redis.endpoint(i).command("EXISTS", "lock:account:2").equals(1L)) {
					held++;
				}
			}
			return held;
		}

	}

}
