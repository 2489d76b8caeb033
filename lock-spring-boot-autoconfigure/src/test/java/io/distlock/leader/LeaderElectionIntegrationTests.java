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

package io.distlock.leader;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.LockTemplate;
import io.distlock.autoconfigure.actuate.LocksEndpoint;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for {@link LeaderElection} between three application contexts on one
 * real redis-server, each with its own connections, as instances of a service would be,
 * and with an instance in a JVM of its own that is killed with {@code kill -9}. Who leads
 * is polled with deadlines; the deadlines that the issue promises (a round trip after a
 * graceful shutdown, about one ttl after a crash) are asserted with generous margins for
 * a loaded machine, each well below what the slower way of taking over would need.
 */
@Timeout(120)
class LeaderElectionIntegrationTests {

	private static final String NAME = "test-leader";

	private static final Duration TTL = Duration.ofSeconds(1);

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void closeContexts() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void givenThreeInstancesThenExactlyOneLeadsAndIsGrantedTheLeadershipOnce() {
		startInstances(3, TTL);

		ConfigurableApplicationContext leader = awaitOneLeader();
		// Over several ttls (the lease is renewed meanwhile) the leadership stays where
		// it is: one leader, one grant.
		await().during(TTL.multipliedBy(3)).atMost(TTL.multipliedBy(10)).until(() -> leaders().equals(List.of(leader)));
		assertThat(this.contexts).flatExtracting((context) -> events(context).granted)
			.singleElement()
			.satisfies((granted) -> {
				assertThat(granted.getSource()).isSameAs(election(leader));
				assertThat(granted.getName()).isEqualTo(NAME);
				assertThat(granted.getFencingToken()).isEqualTo(election(leader).getFencingToken().getAsLong());
			});
		assertThat(this.contexts).flatExtracting((context) -> events(context).revoked).isEmpty();
		assertThat(this.contexts).filteredOn((context) -> context != leader)
			.allSatisfy((follower) -> assertThat(election(follower).getFencingToken()).isEmpty());
	}

	@Test
	void givenTheLeadersContextClosedThenAnotherLeadsAtOnceWithAGreaterFencingToken() {
		// A ttl long enough that a handover by expiry would show: the leader's release on
		// shutdown wakes a waiting instance instead.
		Duration ttl = Duration.ofSeconds(8);
		startInstances(3, ttl);
		List<Long> tokens = new ArrayList<>();
		for (int handover = 0; handover < 2; handover++) {
			ConfigurableApplicationContext leader = awaitOneLeader();
			long token = election(leader).getFencingToken().getAsLong();
			tokens.add(token);
			LeadershipEvents leaderEvents = events(leader);
			leader.close();
			this.contexts.remove(leader);

			assertThat(leaderEvents.revoked).singleElement().satisfies((revoked) -> {
				assertThat(revoked.getReason()).isEqualTo(LeadershipRevokedEvent.Reason.STOPPED);
				assertThat(revoked.getFencingToken()).isEqualTo(token);
			});
			ConfigurableApplicationContext next = awaitOneLeader();
			Recorded<LeadershipGrantedEvent> granted = events(next).grantedAt.get(0);
			// A round trip or a few after the release; 2s allows for a loaded machine,
			// and is a quarter of the ttl that an expiry would have taken.
			assertThat(Duration.ofNanos(granted.nanoTime() - leaderEvents.revokedAt.get(0).nanoTime()))
				.isLessThan(Duration.ofSeconds(2));
			assertThat(granted.event().getFencingToken()).isGreaterThan(token);
		}
		tokens.add(election(awaitOneLeader()).getFencingToken().getAsLong());
		assertThat(tokens).isSortedAccordingTo(Long::compare).doesNotHaveDuplicates();
	}

	@Test
	void givenTheLeadershipKeyDeletedThenTheLeaderIsRevokedAsLostAndTheLeadershipIsContestedAgain() {
		startInstances(3, TTL);
		ConfigurableApplicationContext leader = awaitOneLeader();
		long token = election(leader).getFencingToken().getAsLong();

		assertThat(redis.endpoint().command("DEL", "lock:" + NAME)).isEqualTo(1L);

		await().atMost(TTL.multipliedBy(10))
			.untilAsserted(() -> assertThat(events(leader).revoked).singleElement().satisfies((revoked) -> {
				assertThat(revoked.getReason()).isEqualTo(LeadershipRevokedEvent.Reason.LOST);
				assertThat(revoked.getFencingToken()).isEqualTo(token);
			}));
		await().atMost(TTL.multipliedBy(10))
			.untilAsserted(() -> assertThat(leaders()).singleElement()
				.satisfies((next) -> assertThat(election(next).getFencingToken().orElseThrow()).isGreaterThan(token)));
	}

	@Test
	void givenTheLeadersJvmKilledThenAnotherInstanceLeadsWithinAboutOneTtlWithAGreaterFencingToken() throws Exception {
		ProcessBuilder builder = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-cp",
				System.getProperty("java.class.path"), "-Xmx256m", "-XX:TieredStopAtLevel=1",
				LeaderProcess.class.getName(), redis.endpoint().host(), String.valueOf(redis.endpoint().port()), NAME,
				TTL.toMillis() + "ms")
			.redirectErrorStream(true);
		Process process = builder.start();
		try {
			List<String> output = readLines(process);
			await().atMost(Duration.ofSeconds(60))
				.until(() -> output.stream().anyMatch((line) -> line.startsWith(LeaderProcess.LEADER))
						|| !process.isAlive());
			long killedToken = output.stream()
				.filter((line) -> line.startsWith(LeaderProcess.LEADER))
				.mapToLong((line) -> Long.parseLong(line.substring(LeaderProcess.LEADER.length()).trim()))
				.findFirst()
				.orElseThrow(() -> new AssertionError("The leader process did not lead: " + output));

			startInstances(2, TTL);
			// The process renews its leadership for as long as it lives: the two wait.
			await().during(TTL.multipliedBy(2)).atMost(TTL.multipliedBy(10)).until(() -> leaders().isEmpty());

			long killedAt = System.nanoTime();
			process.destroyForcibly();
			assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
			// 128 + SIGKILL: the JVM was killed, it did not shut down.
			assertThat(process.exitValue()).isEqualTo(137);

			ConfigurableApplicationContext next = awaitOneLeader();
			Recorded<LeadershipGrantedEvent> granted = events(next).grantedAt.get(0);
			// The lock expires at most one ttl after the last renewal; 2s more for the
			// waiters' next attempt on a loaded machine.
			assertThat(Duration.ofNanos(granted.nanoTime() - killedAt)).isLessThan(TTL.plusSeconds(2));
			assertThat(granted.event().getFencingToken()).isGreaterThan(killedToken);
		}
		finally {
			process.destroyForcibly();
			process.waitFor(30, TimeUnit.SECONDS);
		}
	}

	@Test
	void givenLeadershipListenersThatFailThenTheInstanceKeepsLeadingAndContendsAgainAfterALoss() {
		startInstances(1, TTL, "test.failing-listeners=true");
		ConfigurableApplicationContext leader = awaitOneLeader();
		long token = election(leader).getFencingToken().getAsLong();

		// A listener's failure is the listener's: the leadership is renewed on.
		await().during(TTL.multipliedBy(3)).atMost(TTL.multipliedBy(10)).until(() -> leaders().equals(List.of(leader)));
		assertThat(redis.endpoint().command("DEL", "lock:" + NAME)).isEqualTo(1L);

		// And a loss is contended for again, although the listener of the revocation
		// fails too.
		await().atMost(TTL.multipliedBy(10)).untilAsserted(() -> {
			assertThat(events(leader).revoked).extracting(LeadershipRevokedEvent::getReason)
				.containsExactly(LeadershipRevokedEvent.Reason.LOST);
			assertThat(election(leader).getFencingToken().orElse(0)).isGreaterThan(token);
		});
		assertThat(leader.getBean(FailingListeners.class).failures).hasValueGreaterThanOrEqualTo(3);
	}

	@Test
	void givenTheElectionStoppedAndStartedAgainThenTheInstanceLeadsAgain() {
		startInstances(1, TTL);
		ConfigurableApplicationContext leader = awaitOneLeader();
		LeaderElection election = election(leader);
		long token = election.getFencingToken().getAsLong();

		election.stop();
		assertThat(election.isLeader()).isFalse();
		election.start();

		await().atMost(TTL.multipliedBy(10)).until(election::isLeader);
		assertThat(election.getFencingToken().getAsLong()).isGreaterThan(token);
		// Renewed: it keeps leading past its ttl.
		await().during(TTL.multipliedBy(3)).atMost(TTL.multipliedBy(10)).until(election::isLeader);
	}

	@Test
	void givenAnInstanceLeadsThenTheLocksEndpointListsTheLeadershipLockWithTheApplicationsLocks() {
		startInstances(1, TTL, "management.endpoints.web.exposure.include=locks",
				"management.endpoint.locks.show-values=always");
		ConfigurableApplicationContext leader = awaitOneLeader();
		LocksEndpoint endpoint = leader.getBean(LocksEndpoint.class);
		long token = election(leader).getFencingToken().getAsLong();

		leader.getBean(LockTemplate.class).execute("orders:1", TTL.multipliedBy(10), Duration.ZERO, () -> {
			assertThat(endpoint.locks(SecurityContext.NONE).locks())
				.extracting(LocksEndpoint.HeldLockDescriptor::key, LocksEndpoint.HeldLockDescriptor::name)
				.containsExactlyInAnyOrder(tuple(NAME, "leader"), tuple("orders:1", ""));
			return null;
		});
		assertThat(endpoint.locks(SecurityContext.NONE).locks()).singleElement().satisfies((lock) -> {
			assertThat(lock.key()).isEqualTo(NAME);
			assertThat(lock.fencingToken()).isEqualTo(token);
		});
	}

	private void startInstances(int count, Duration ttl, String... properties) {
		for (int i = 0; i < count; i++) {
			this.contexts.add(new SpringApplicationBuilder(LeaderApplication.class).web(WebApplicationType.NONE)
				.properties(properties)
				.properties("spring.data.redis.host=" + redis.endpoint().host(),
						"spring.data.redis.port=" + redis.endpoint().port(), "spring.data.redis.timeout=2s",
						"spring.application.name=instance-" + i, "spring.main.banner-mode=off",
						"distlock.leader.name=" + NAME, "distlock.leader.ttl=" + ttl.toMillis() + "ms")
				.run());
		}
	}

	private ConfigurableApplicationContext awaitOneLeader() {
		await().atMost(Duration.ofSeconds(20)).until(() -> leaders().size() == 1);
		return leaders().get(0);
	}

	private List<ConfigurableApplicationContext> leaders() {
		return this.contexts.stream().filter((context) -> election(context).isLeader()).toList();
	}

	private static LeaderElection election(ConfigurableApplicationContext context) {
		return context.getBean(LeaderElection.class);
	}

	private static LeadershipEvents events(ConfigurableApplicationContext context) {
		return context.getBean(LeadershipEvents.class);
	}

	// Drains the process's output, which would block it once the pipe is full.
	private static List<String> readLines(Process process) {
		List<String> lines = new CopyOnWriteArrayList<>();
		Thread reader = new Thread(() -> {
			try (BufferedReader in = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				String line;
				while ((line = in.readLine()) != null) {
					lines.add(line);
				}
			}
			catch (IOException ex) {
				// The process is gone.
			}
		}, "leader-process-output");
		reader.setDaemon(true);
		reader.start();
		return lines;
	}

	record Recorded<E>(E event, long nanoTime) {

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class LeaderApplication {

		@Bean
		LeadershipEvents leadershipEvents() {
			return new LeadershipEvents();
		}

		@Bean
		@ConditionalOnBooleanProperty("test.failing-listeners")
		FailingListeners failingListeners() {
			return new FailingListeners();
		}

	}

	/**
	 * Listeners of the leadership that fail, as the start of leader-only work may.
	 */
	static class FailingListeners {

		final AtomicInteger failures = new AtomicInteger();

		@EventListener
		void granted(LeadershipGrantedEvent event) {
			this.failures.incrementAndGet();
			throw new IllegalStateException("Could not start the leader's work");
		}

		@EventListener
		void revoked(LeadershipRevokedEvent event) {
			this.failures.incrementAndGet();
			throw new IllegalStateException("Could not stop the leader's work");
		}

	}

	/**
	 * The leadership events of one instance, with when they were published.
	 */
	static class LeadershipEvents {

		final List<LeadershipGrantedEvent> granted = new CopyOnWriteArrayList<>();

		final List<Recorded<LeadershipGrantedEvent>> grantedAt = new CopyOnWriteArrayList<>();

		final List<LeadershipRevokedEvent> revoked = new CopyOnWriteArrayList<>();

		final List<Recorded<LeadershipRevokedEvent>> revokedAt = new CopyOnWriteArrayList<>();

		// First, before listeners that may fail.
		@EventListener
		@Order(Ordered.HIGHEST_PRECEDENCE)
		void granted(LeadershipGrantedEvent event) {
			this.grantedAt.add(new Recorded<>(event, System.nanoTime()));
			this.granted.add(event);
		}

		@EventListener
		@Order(Ordered.HIGHEST_PRECEDENCE)
		void revoked(LeadershipRevokedEvent event) {
			this.revokedAt.add(new Recorded<>(event, System.nanoTime()));
			this.revoked.add(event);
		}

	}

}
