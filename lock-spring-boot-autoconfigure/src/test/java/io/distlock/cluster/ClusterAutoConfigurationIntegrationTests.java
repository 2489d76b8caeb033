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

package io.distlock.cluster;

import java.util.ArrayList;
import java.util.List;

import io.distlock.LockTemplate;
import io.distlock.annotation.DistributedLocked;
import io.distlock.autoconfigure.DistLockAutoConfiguration;
import io.distlock.docs.AclRuleIntegrationTests;
import io.distlock.redis.RedisReleaseNotifier;
import io.distlock.test.CriticalSections;
import io.distlock.test.RedisClusterExtension;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisVersion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that an application configured only through
 * {@code spring.data.redis.cluster.nodes} locks on Redis Cluster, with sharded release
 * notifications, also as the least-privilege user of the README's ACL rule.
 */
class ClusterAutoConfigurationIntegrationTests {

	// Sharded pub/sub arrived with Redis 7; Redis 6.2 does not know the commands.
	private static final List<String> REDIS_7_ONLY = List.of("+ssubscribe", "+sunsubscribe", "+spublish");

	@RegisterExtension
	static final RedisClusterExtension redis = RedisClusterExtension.of(3, 1);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class))
		.withUserConfiguration(InventoryConfiguration.class)
		.withPropertyValues("spring.data.redis.cluster.nodes=" + String.join(",", redis.cluster().nodeAddresses()),
				"spring.data.redis.timeout=2s", "spring.data.redis.lettuce.cluster.refresh.adaptive=true",
				"spring.data.redis.lettuce.cluster.refresh.period=1s");

	@AfterEach
	void deleteUser() {
		for (RedisServer node : redis.cluster().nodes()) {
			node.command("ACL", "DELUSER", "distlock");
		}
	}

	@Test
	void annotatedMethodAndTemplateLockOnTheClusterWithTheShardedNotifier() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(RedisReleaseNotifier.class);
			// RedisReleaseNotifier.sharded: the sharded subscriptions inside.
			assertThat(context.getBean(RedisReleaseNotifier.class)).extracting("notifier")
				.extracting((notifier) -> notifier.getClass().getSimpleName())
				.isEqualTo("ShardedReleaseNotifier");
			exerciseLocks(context.getBean(LockTemplate.class), context.getBean(Inventory.class));
		});
	}

	@Test
	void userWithTheReadmesRuleLocksOnEveryNodeWithoutAnyRefusal() throws Exception {
		List<String> rule = new ArrayList<>(AclRuleIntegrationTests.documentedRule());
		if (RedisVersion.majorVersion() < 7) {
			// As AclRuleIntegrationTests does on Redis 6.2.
			rule.removeAll(REDIS_7_ONLY);
			rule.addAll(List.of("+client|setinfo", "+client|maint_notifications"));
		}
		for (RedisServer node : redis.cluster().nodes()) {
			node.command("ACL", "LOG", "RESET");
			List<String> command = new ArrayList<>(List.of("ACL", "SETUSER", "distlock"));
			command.addAll(rule);
			node.command(command.toArray(String[]::new));
		}
		this.contextRunner
			.withPropertyValues("spring.data.redis.username=distlock", "spring.data.redis.password=change-me")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				exerciseLocks(context.getBean(LockTemplate.class), context.getBean(Inventory.class));
			});
		List<String> refused = new ArrayList<>();
		for (RedisServer node : redis.cluster().nodes()) {
			for (Object entry : (List<?>) node.command("ACL", "LOG")) {
				List<?> fields = (List<?>) entry;
				refused.add(fields.get(fields.indexOf("reason") + 1) + " " + fields.get(fields.indexOf("object") + 1));
			}
		}
		assertThat(refused).as("refusals").isEmpty();
	}

	private static void exerciseLocks(LockTemplate template, Inventory inventory) throws Exception {
		CriticalSections sections = CriticalSections.run(4, 10, inventory::reserve);
		assertThat(sections.overlaps()).isZero();
		assertThat(sections.count()).isEqualTo(40);
		AclRuleIntegrationTests.exerciseLocks(template);
	}

	@Configuration(proxyBeanMethods = false)
	static class InventoryConfiguration {

		@Bean
		Inventory inventory() {
			return new Inventory();
		}

	}

	static class Inventory {

		@DistributedLocked(key = "'sku-1'", waitTime = "20s")
		public void reserve(Runnable section) {
			section.run();
		}

	}

}
