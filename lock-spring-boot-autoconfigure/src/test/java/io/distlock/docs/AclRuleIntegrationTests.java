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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.distlock.LockHandle;
import io.distlock.LockRequest;
import io.distlock.LockTemplate;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import io.distlock.autoconfigure.DistLockAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.LIST;

/**
 * Runs every kind of lock as the least-privilege user whose ACL rule docs/deployments.md
 * shows, and checks that Redis refused it nothing: that rule is exactly what distlock
 * needs.
 */
public class AclRuleIntegrationTests {

	private static final String RULE_START = "ACL SETUSER distlock ";

	// Sharded pub/sub arrived with Redis 7; Redis 6.2 does not know the commands.
	private static final List<String> REDIS_7_ONLY = List.of("+ssubscribe", "+sunsubscribe", "+spublish");

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class));

	@AfterEach
	void deleteUser() {
		redis.endpoint().command("ACL", "DELUSER", "distlock");
	}

	@Test
	void userWithTheReadmesRuleTakesWaitsForFairlyRenewsAndReleasesLocksWithoutAnyRefusal() throws Exception {
		runAs(rule());
		assertThat(redis.endpoint().command("ACL", "LOG")).as("refusals").isEqualTo(List.of());
	}

	@Test
	void userWithoutChannelPermissionStillLocksAndWaitsByPolling() throws Exception {
		List<String> rule = rule();
		assertThat(rule.remove("&distlock:released:*")).isTrue();
		runAs(rule);
		assertThat(redis.endpoint().command("ACL", "LOG")).as("refusals")
			.asInstanceOf(LIST)
			.isNotEmpty()
			.allSatisfy((entry) -> assertThat(((List<?>) entry).stream().map(String::valueOf).toList())
				.containsSubsequence("reason", "channel"));
	}

	private List<String> rule() throws IOException {
		List<String> rule = documentedRule();
		if (!isRedis7()) {
			// As docs/deployments.md says: Redis 6.2 knows no sharded pub/sub, and its
			// ACL log
			// records the CLIENT subcommands that Lettuce 7 tries while connecting, which
			// Redis 7.0 rejects as unknown before any ACL check.
			rule.removeAll(REDIS_7_ONLY);
			rule.addAll(List.of("+client|setinfo", "+client|maint_notifications"));
		}
		return rule;
	}

	private void runAs(List<String> rule) {
		redis.endpoint().command("ACL", "LOG", "RESET");
		List<String> command = new ArrayList<>(List.of("ACL", "SETUSER", "distlock"));
		command.addAll(rule);
		redis.endpoint().command(command.toArray(String[]::new));
		this.contextRunner
			.withPropertyValues("spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port(), "spring.data.redis.username=distlock",
					"spring.data.redis.password=change-me", "spring.data.redis.client-name=acl-test")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				LockTemplate template = context.getBean(LockTemplate.class);
				exerciseLocks(template);
			});
	}

	/**
	 * Take, renew, wait for (plain and fair) and release locks, as every test of a user
	 * or a deployment does.
	 * @param template the application's template
	 * @throws Exception if a lock did not behave
	 */
	public static void exerciseLocks(LockTemplate template) throws Exception {
		// Renewed by the watchdog: held three times its ttl.
		try (LockHandle handle = template.tryAcquire("renewed", Duration.ofSeconds(1), Duration.ZERO).orElseThrow()) {
			Thread.sleep(3_000);
			assertThat(handle.isHeld()).isTrue();
		}
		for (boolean fair : new boolean[] { false, true }) {
			LockRequest request = LockRequest.of("waited-" + fair, Duration.ofSeconds(30), Duration.ofSeconds(20))
				.withFair(fair);
			LockHandle holder = template.tryAcquire(request).orElseThrow();
			CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
				long start = System.nanoTime();
				try (LockHandle handle = template.tryAcquire(request).orElseThrow()) {
					return System.nanoTime() - start;
				}
			});
			Thread.sleep(300);
			holder.close();
			assertThat(waiter.get(25, TimeUnit.SECONDS)).isLessThan(TimeUnit.SECONDS.toNanos(20));
		}
	}

	private boolean isRedis7() {
		String info = String.valueOf(redis.endpoint().command("INFO", "server"));
		return !info.contains("redis_version:6.");
	}

	/**
	 * The rule's words, split and unquoted as redis-cli and ACL files do it.
	 */
	public static List<String> documentedRule() throws IOException {
		String line = Files.readAllLines(Path.of("..", "docs", "deployments.md"))
			.stream()
			.filter((candidate) -> candidate.startsWith(RULE_START))
			.findFirst()
			.orElseThrow(
					() -> new IllegalStateException("docs/deployments.md shows no line starting with " + RULE_START));
		return splitArgs(line.substring(RULE_START.length()));
	}

	private static List<String> splitArgs(String line) {
		List<String> words = new ArrayList<>();
		StringBuilder word = new StringBuilder();
		boolean quoted = false;
		for (int i = 0; i < line.length(); i++) {
			char c = line.charAt(i);
			if (quoted && c == '\\' && line.startsWith("x", i + 1)) {
				word.append((char) Integer.parseInt(line.substring(i + 2, i + 4), 16));
				i += 3;
			}
			else if (c == '"') {
				quoted = !quoted;
			}
			else if (c == ' ' && !quoted) {
				if (!word.isEmpty()) {
					words.add(word.toString());
					word.setLength(0);
				}
			}
			else {
				word.append(c);
			}
		}
		if (!word.isEmpty()) {
			words.add(word.toString());
		}
		return words;
	}

}
