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

package io.distlock.docs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.autoconfigure.DistLockIntegrationAutoConfiguration;
import io.distlock.autoconfigure.DistLockMetricsAutoConfiguration;
import io.distlock.integration.DistlockLockRegistry;
import io.distlock.test.RedisServerExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.aggregator.AggregatingMessageHandler;
import org.springframework.integration.aggregator.DefaultAggregatingMessageGroupProcessor;
import org.springframework.integration.aggregator.SequenceSizeReleaseStrategy;
import org.springframework.integration.channel.QueueChannel;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.store.SimpleMessageStore;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.messaging.Message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Runs the "Coming from Spring Integration" examples in Spring Boot applications on a
 * real redis-server, with Spring Integration's own components on the registry distlock
 * auto-configures: {@code executeLocked}, an aggregator, and a
 * {@link LockRegistryLeaderInitiator} in each of two applications.
 */
class SpringIntegrationExamplesIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class,
				DistLockIntegrationAutoConfiguration.class, ObservationAutoConfiguration.class,
				MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, DistLockMetricsAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
				"spring.data.redis.port=" + redis.endpoint().port())
		.withUserConfiguration(IntegrationConfiguration.class);

	@Test
	void executeLockedRunsUnderADistlockLockWithIncreasingFencingTokens() {
		this.contextRunner.run((context) -> {
			assertThat(context).getBean(LockRegistry.class).isInstanceOf(DistlockLockRegistry.class);
			ShipmentBatcher batcher = context.getBean(ShipmentBatcher.class);
			batcher.ship("42");
			batcher.ship("42");
			assertThat(batcher.shipped()).hasSize(2);
			long first = token(batcher.shipped().get(0));
			assertThat(first).isPositive();
			assertThat(token(batcher.shipped().get(1))).isGreaterThan(first);
			assertThat(redis.endpoint().command("EXISTS", "lock:shipment:42")).isEqualTo(0L);
		});
	}

	@Test
	void aggregatorReleasesEachGroupOnceUnderTheRegistrysLocks() {
		this.contextRunner.run((context) -> {
			QueueChannel released = new QueueChannel();
			AggregatingMessageHandler aggregator = new AggregatingMessageHandler(
					new DefaultAggregatingMessageGroupProcessor(), new SimpleMessageStore());
			aggregator.setLockRegistry(context.getBean(LockRegistry.class));
			aggregator.setReleaseStrategy(new SequenceSizeReleaseStrategy());
			aggregator.setOutputChannel(released);
			aggregator.setBeanFactory(context.getBeanFactory());
			aggregator.afterPropertiesSet();
			ExecutorService threads = Executors.newFixedThreadPool(6);
			try {
				List<Future<?>> sent = new ArrayList<>();
				for (int group = 0; group < 10; group++) {
					for (int part = 1; part <= 3; part++) {
						Message<String> message = MessageBuilder.withPayload("g" + group + "p" + part)
							.setCorrelationId("order-" + group)
							.setSequenceNumber(part)
							.setSequenceSize(3)
							.build();
						sent.add(threads.submit(() -> aggregator.handleMessage(message)));
					}
				}
				for (Future<?> future : sent) {
					future.get(30, TimeUnit.SECONDS);
				}
			}
			finally {
				threads.shutdownNow();
			}
			List<Message<?>> groups = released.clear();
			assertThat(groups).hasSize(10).allSatisfy((group) -> assertThat((List<?>) group.getPayload()).hasSize(3));
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.find("distlock.lock")
				.tag("distlock.lock.name", DistlockLockRegistry.LOCK_NAME)
				.tag("distlock.lock.outcome", "acquired")
				.timer()
				.count()).isGreaterThanOrEqualTo(30);
		});
	}

	@Test
	void leaderInitiatorsOfTwoApplicationsElectExactlyOneLeaderAndLeadershipMovesWhenItStops() {
		ApplicationContextRunner leaders = this.contextRunner.withUserConfiguration(LeaderConfiguration.class);
		leaders.run((first) -> leaders.run((second) -> {
			LockRegistryLeaderInitiator a = first.getBean(LockRegistryLeaderInitiator.class);
			LockRegistryLeaderInitiator b = second.getBean(LockRegistryLeaderInitiator.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> a.getContext().isLeader() || b.getContext().isLeader());
			for (int i = 0; i < 10; i++) {
				assertThat(a.getContext().isLeader() && b.getContext().isLeader()).as("two leaders").isFalse();
				assertThat(a.getContext().isLeader() || b.getContext().isLeader()).as("no leader").isTrue();
				Thread.sleep(100);
			}
			AssertableApplicationContext leader = a.getContext().isLeader() ? first : second;
			LockRegistryLeaderInitiator follower = a.getContext().isLeader() ? b : a;
			// The leading application stops: its initiator gives the lock up.
			leader.close();
			await().atMost(Duration.ofSeconds(10)).until(() -> follower.getContext().isLeader());
		}));
	}

	private static long token(String shipped) {
		return Long.parseLong(shipped.substring(shipped.lastIndexOf(' ') + 1));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIntegration
	static class IntegrationConfiguration {

		@Bean
		ShipmentBatcher shipmentBatcher(LockRegistry<?> lockRegistry) {
			return new ShipmentBatcher(lockRegistry);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LeaderConfiguration {

		@Bean
		LockRegistryLeaderInitiator leaderInitiator(LockRegistry<?> lockRegistry) {
			LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(lockRegistry);
			initiator.setHeartBeatMillis(200);
			initiator.setBusyWaitMillis(50);
			return initiator;
		}

	}

}
