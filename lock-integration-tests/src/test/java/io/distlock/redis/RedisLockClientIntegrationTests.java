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

package io.distlock.redis;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.distlock.LockBackendException;
import io.distlock.store.AcquireResult;
import io.distlock.store.Renewal;
import io.distlock.test.RedisConnections;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerExtension;
import io.distlock.test.RespConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests for what is particular to {@link RedisLockClient} against a real
 * redis-server: the commands a lock costs, the release messages, the keys and the fencing
 * counter in Redis, and Redis going down; the store contract runs in
 * {@link RedisStoreContractIntegrationTests}.
 */
class RedisLockClientIntegrationTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private static final Pattern COMMAND_STAT = Pattern.compile("^cmdstat_([^:|]+)(?:\\|[^:]+)?:calls=(\\d+)");

	private static final Set<String> BACKGROUND_COMMANDS = Set.of("info", "script", "ping", "hello", "client");

	private LettuceConnectionFactory connectionFactory;

	private RedisLockClient client;

	@BeforeEach
	void createClient() {
		this.connectionFactory = RedisConnections.connectionFactory(redis.endpoint());
		this.client = new RedisLockClient(this.connectionFactory);
	}

	@AfterEach
	void destroyClient() {
		this.connectionFactory.destroy();
	}

	@Test
	void uncontendedLockAndUnlockRunEightCommandsAndPublishNothing() {
		String warmUp = owner();
		acquired(this.client.tryAcquire("k", warmUp, Duration.ofSeconds(10)));
		this.client.release("k", warmUp);
		Map<String, Long> before = commandCalls();
		for (int i = 0; i < 20; i++) {
			String owner = owner();
			acquired(this.client.tryAcquire("k", owner, Duration.ofSeconds(10)));
			assertThat(this.client.release("k", owner)).isTrue();
		}
		Map<String, Long> calls = callsSince(before);
		assertThat(calls).doesNotContainKeys("publish", "spublish", "lindex");
		// EVALSHA, EXISTS, SET NX, TIME and SET GET (the fencing token, fencing.lua);
		// EVALSHA, GET and DEL.
		assertThat(calls.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(20 * 8);
	}

	@Test
	void releaseIsPublishedOnlyWhenACallerFoundTheLockBusy() {
		String holder = owner();
		acquired(this.client.tryAcquire("k", holder, Duration.ofSeconds(10)));
		assertThat(this.client.tryAcquire("k", owner(), Duration.ofSeconds(10))).isInstanceOf(AcquireResult.Busy.class);
		Map<String, Long> before = commandCalls();
		assertThat(this.client.release("k", holder)).isTrue();
		assertThat(callsSince(before)).containsEntry("publish", 1L);
		String next = owner();
		acquired(this.client.tryAcquire("k", next, Duration.ofSeconds(10)));
		Map<String, Long> beforeNext = commandCalls();
		assertThat(this.client.release("k", next)).isTrue();
		assertThat(callsSince(beforeNext)).doesNotContainKey("publish");
	}

	@Test
	void announcementOfAWaiterEndsWithTheHoldersLease() {
		acquired(this.client.tryAcquire("k", owner(), Duration.ofMillis(800)));
		assertThat(this.client.tryAcquire("k", owner(), Duration.ofSeconds(10))).isInstanceOf(AcquireResult.Busy.class);
		assertThat((Long) redis.endpoint().command("PTTL", RedisLockKeys.of("k").waiters())).isBetween(1L, 800L);
	}

	@Test
	void fencingCounterIsKeptForItsRetentionFromItsLastUse() {
		this.client.setFencingCounterRetention(Duration.ofSeconds(60));
		String first = owner();
		acquired(this.client.tryAcquire("k", first, Duration.ofSeconds(10)));
		this.client.release("k", first);
		redis.endpoint().command("PEXPIRE", RedisLockKeys.of("k").fence(), "30000");
		acquired(this.client.tryAcquire("k", owner(), Duration.ofSeconds(10)));
		assertThat((Long) redis.endpoint().command("PTTL", RedisLockKeys.of("k").fence())).isGreaterThan(30_000L);
	}

	@Test
	void givenTokensFromTheCounterAloneWhenAcquiringThenEachIsTheLastPlusOneOrTheClockAndTheRetentionRunsFromTheLastGrant() {
		// Redlock's nodes: a retention counted from the counter's start let a counter in
		// use expire, and restart from a clock that may be behind another node's.
		this.client.setFencingTokensFromClock(false);
		this.client.setFencingCounterRetention(Duration.ofSeconds(60));
		String first = owner();
		long token = acquired(this.client.tryAcquire("k", first, Duration.ofSeconds(10)));
		this.client.release("k", first);
		redis.endpoint().command("PEXPIRE", RedisLockKeys.of("k").fence(), "30000");
		AcquireResult.Acquired second = (AcquireResult.Acquired) this.client.tryAcquire("k", owner(),
				Duration.ofSeconds(10));
		assertThat(second.fencingToken()).isEqualTo(Math.max(token + 1, tenthOfASecond(second.clockMicros())));
		assertThat((Long) redis.endpoint().command("PTTL", RedisLockKeys.of("k").fence())).isGreaterThan(30_000L);
	}

	@Test
	void givenTokensFromTheCounterAloneWhenTheCounterIsAheadOfTheClockThenTheTokenIsTheLastPlusOne() {
		this.client.setFencingTokensFromClock(false);
		long ahead = clockMicros() + 60_000_000;
		redis.endpoint().command("SET", RedisLockKeys.of("k").fence(), String.valueOf(ahead), "PX", "60000");
		assertThat(acquired(this.client.tryAcquire("k", owner(), Duration.ofSeconds(10)))).isEqualTo(ahead + 1);
	}

	@Test
	void givenTokensFromTheCounterAloneWhenTheCounterIsBehindTheClockThenTheTokenIsTheClockRoundedDownToATenthOfASecond() {
		// A Redlock node restored from an older snapshot: its counter cannot undercut the
		// tokens granted before it went down while the clocks agree (docs/redlock.md).
		this.client.setFencingTokensFromClock(false);
		redis.endpoint().command("SET", RedisLockKeys.of("k").fence(), "1000", "PX", "60000");
		AcquireResult.Acquired result = (AcquireResult.Acquired) this.client.tryAcquire("k", owner(),
				Duration.ofSeconds(10));
		assertThat(result.fencingToken()).isEqualTo(tenthOfASecond(result.clockMicros()));
	}

	private static long tenthOfASecond(long micros) {
		return micros - micros % 100_000;
	}

	private static long clockMicros() {
		List<?> time = (List<?>) redis.endpoint().command("TIME");
		return Long.parseLong(String.valueOf(time.get(0))) * 1_000_000 + Long.parseLong(String.valueOf(time.get(1)));
	}

	@Test
	void givenACounterBehindTheTokensHandedOutWhenAcquiringThenTheTokenStillComesAfterThem() {
		long last = tokenAfterTheCounterFellBehind();
		assertThat(acquired(this.client.tryAcquire("k", owner(), Duration.ofSeconds(10)))).isGreaterThan(last);
	}

	@Test
	void givenACounterBehindTheTokensHandedOutWhenAcquiringFairThenTheTokenStillComesAfterThem() {
		long last = tokenAfterTheCounterFellBehind();
		assertThat(acquired(this.client.tryAcquireFair("k", owner(), Duration.ofSeconds(10), Duration.ofSeconds(10))))
			.isGreaterThan(last);
	}

	/**
	 * Hand out tokens, then set the counter back to what it was after the first: what a
	 * replica has when it missed the last acquisitions before a failover promoted it.
	 * @return the greatest token handed out
	 */
	private long tokenAfterTheCounterFellBehind() {
		String fence = RedisLockKeys.of("k").fence();
		String first = owner();
		acquired(this.client.tryAcquire("k", first, Duration.ofSeconds(10)));
		this.client.release("k", first);
		Object behind = redis.endpoint().command("GET", fence);
		long last = 0;
		for (int i = 0; i < 5; i++) {
			String owner = owner();
			last = acquired(this.client.tryAcquire("k", owner, Duration.ofSeconds(10)));
			this.client.release("k", owner);
		}
		redis.endpoint().command("SET", fence, String.valueOf(behind));
		return last;
	}

	/**
	 * Return the calls of each command Redis ran so far, those run by scripts included,
	 * from {@code INFO commandstats}.
	 */
	static Map<String, Long> commandCalls() {
		Map<String, Long> calls = new HashMap<>();
		for (String line : ((String) redis.endpoint().command("INFO", "commandstats")).split("\r?\n")) {
			Matcher stat = COMMAND_STAT.matcher(line);
			if (stat.find()) {
				calls.put(stat.group(1), Long.parseLong(stat.group(2)));
			}
		}
		return calls;
	}

	/**
	 * Return the calls since the given ones, leaving out those with none, the
	 * {@code INFO} of the reading itself and the connection's and script loader's own
	 * commands, which run in the background.
	 */
	static Map<String, Long> callsSince(Map<String, Long> before) {
		Map<String, Long> since = new HashMap<>();
		commandCalls().forEach((command, calls) -> {
			long more = calls - before.getOrDefault(command, 0L);
			if (more > 0 && !BACKGROUND_COMMANDS.contains(command)) {
				since.put(command, more);
			}
		});
		return since;
	}

	@Test
	void lockKeyIsTheResourceNameHoldingTheOwnerTokenWithTheTtlAsExpiry() {
		String owner = owner();
		this.client.tryAcquire("lock:order:42", owner, Duration.ofSeconds(10));
		assertThat(redis.endpoint().command("GET", "lock:order:42")).isEqualTo(owner);
		assertThat((Long) redis.endpoint().command("PTTL", "lock:order:42")).isBetween(9_000L, 10_000L);
	}

	@Test
	void acquireOfAKeyWithoutExpiryIsBusyForAnUnknownTime() {
		redis.endpoint().command("SET", "k", "set by someone else");
		assertThat(this.client.tryAcquire("k", owner(), Duration.ofSeconds(10)))
			.isEqualTo(new AcquireResult.Busy(null));
	}

	@Test
	void fencingTokensIncreaseAfterTheLockKeyWasDeleted() {
		long first = acquired(this.client.tryAcquire("k", owner(), Duration.ofSeconds(10)));
		redis.endpoint().command("DEL", "k");
		assertThat(acquired(this.client.tryAcquire("k", owner(), Duration.ofSeconds(10)))).isGreaterThan(first);
	}

	@Test
	void fencingTokensIncreaseAfterTheCounterExpired() throws Exception {
		String owner = owner();
		long first = acquired(this.client.tryAcquire("k", owner, Duration.ofSeconds(10)));
		this.client.release("k", owner);
		// As if its retention had passed: the shortest allowed is a minute.
		redis.endpoint().command("PEXPIRE", RedisLockKeys.of("k").fence(), "1");
		await().atMost(Duration.ofSeconds(5))
			.until(() -> Long.valueOf(0).equals(redis.endpoint().command("EXISTS", RedisLockKeys.of("k").fence())));
		assertThat(acquired(this.client.tryAcquire("k", owner(), Duration.ofSeconds(10)))).isGreaterThan(first);
	}

	@Test
	void lockNamedLikeAnotherLocksFencingCounterIsFreeAndLeavesThatCounterAlone() {
		long first = acquired(this.client.tryAcquire("{t}:42", owner(), Duration.ofSeconds(10)));
		String other = owner();
		assertThat(this.client.tryAcquire("{t}:42:fence", other, Duration.ofSeconds(10)))
			.isInstanceOf(AcquireResult.Acquired.class);
		assertThat(this.client.release("{t}:42:fence", other)).isTrue();
		assertThat(redis.endpoint().command("GET", RedisLockKeys.of("{t}:42").fence()))
			.isEqualTo(String.valueOf(first));
	}

	@Test
	void acquiringALockLeavesALockNamedLikeItsFencingCounterHeld() {
		String owner = owner();
		acquired(this.client.tryAcquire("{t}:42:fence", owner, Duration.ofSeconds(10)));
		acquired(this.client.tryAcquire("{t}:42", owner(), Duration.ofSeconds(10)));
		assertThat(this.client.isHeld("{t}:42:fence", owner)).isTrue();
		assertThat(this.client.release("{t}:42:fence", owner)).isTrue();
	}

	@Test
	void renewAllRenewsOnlyTheOwnersLeasesInOneCall() {
		String a = owner();
		String b = owner();
		String c = owner();
		this.client.tryAcquire("a", a, Duration.ofSeconds(1));
		this.client.tryAcquire("b", b, Duration.ofSeconds(1));
		this.client.tryAcquire("c", c, Duration.ofSeconds(1));
		boolean[] renewed = this.client.renewAll(List.of(new Renewal("a", a, Duration.ofSeconds(30)),
				new Renewal("b", owner(), Duration.ofSeconds(30)), new Renewal("c", c, Duration.ofSeconds(30))));
		assertThat(renewed).containsExactly(true, false, true);
		assertThat((Long) redis.endpoint().command("PTTL", "a")).isGreaterThan(20_000L);
		assertThat((Long) redis.endpoint().command("PTTL", "b")).isLessThanOrEqualTo(1_000L);
		assertThat((Long) redis.endpoint().command("PTTL", "c")).isGreaterThan(20_000L);
	}

	@Test
	void renewAllWorksAfterRedisForgotTheScripts() {
		String a = owner();
		String b = owner();
		// Leases that cannot run out before the renewal, however loaded the machine.
		this.client.tryAcquire("a", a, Duration.ofSeconds(10));
		this.client.tryAcquire("b", b, Duration.ofSeconds(10));
		redis.endpoint().command("SCRIPT", "FLUSH");
		boolean[] renewed = this.client.renewAll(
				List.of(new Renewal("a", a, Duration.ofSeconds(30)), new Renewal("b", b, Duration.ofSeconds(30))));
		assertThat(renewed).containsExactly(true, true);
	}

	@Test
	void releaseAfterAnAttemptFoundTheLockBusyPublishesTheResourceOnTheLockChannel() {
		String owner = owner();
		this.client.tryAcquire("lock:order:42", owner, Duration.ofSeconds(10));
		this.client.tryAcquire("lock:order:42", owner(), Duration.ofSeconds(10));
		try (RespConnection subscriber = redis.endpoint().connect(Duration.ofSeconds(2))) {
			subscriber.command("SUBSCRIBE", RedisLockKeys.of("lock:order:42").channel());
			this.client.release("lock:order:42", owner);
			assertThat(subscriber.read())
				.isEqualTo(List.of("message", RedisLockKeys.of("lock:order:42").channel(), "lock:order:42"));
		}
	}

	@Test
	void releaseThatFindsTheLockExpiredPublishesNothing() {
		try (RespConnection subscriber = redis.endpoint().connect(Duration.ofMillis(300))) {
			subscriber.command("PSUBSCRIBE", RedisLockKeys.CHANNEL_PATTERN);
			assertThat(this.client.release("k", owner())).isFalse();
			assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(subscriber::read);
		}
	}

	@Test
	void renewalAfterTheReleaseDoesNotBringTheLockBack() {
		String owner = owner();
		this.client.tryAcquire("k", owner, Duration.ofSeconds(10));
		this.client.release("k", owner);
		assertThat(this.client.renew("k", owner, Duration.ofSeconds(10))).isFalse();
		assertThat(this.client.renewAll(List.of(new Renewal("k", owner, Duration.ofSeconds(10)))))
			.containsExactly(false);
		assertThat(redis.endpoint().command("EXISTS", "k")).isEqualTo(0L);
	}

	@Test
	void renewAllTreatsALockKeyOverwrittenWithAnotherTypeAsLostAndRenewsTheRest() {
		String a = owner();
		String b = owner();
		String c = owner();
		this.client.tryAcquire("a", a, Duration.ofSeconds(1));
		this.client.tryAcquire("b", b, Duration.ofSeconds(1));
		this.client.tryAcquire("c", c, Duration.ofSeconds(1));
		redis.endpoint().command("DEL", "b");
		redis.endpoint().command("HSET", "b", "field", "value");
		boolean[] renewed = this.client.renewAll(List.of(new Renewal("a", a, Duration.ofSeconds(30)),
				new Renewal("b", b, Duration.ofSeconds(30)), new Renewal("c", c, Duration.ofSeconds(30))));
		assertThat(renewed).containsExactly(true, false, true);
		assertThat((Long) redis.endpoint().command("PTTL", "c")).isGreaterThan(20_000L);
	}

	@Test
	void operationsFailWithABackendExceptionWithinTheTimeoutWhileRedisIsDownAndWorkAgainAfterRestart() {
		try (RedisServer server = RedisServer.start()) {
			LettuceConnectionFactory factory = RedisConnections.connectionFactory(server);
			try {
				RedisLockClient client = new RedisLockClient(factory);
				acquired(client.tryAcquire("k", owner(), Duration.ofSeconds(10)));
				server.stop();
				long start = System.nanoTime();
				assertThatExceptionOfType(LockBackendException.class)
					.isThrownBy(() -> client.tryAcquire("k", owner(), Duration.ofSeconds(10)))
					.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("k"))
					.withMessageStartingWith("Redis failed to acquire lock 'k'");
				assertThat(System.nanoTime() - start)
					.isLessThan(RedisConnections.TIMEOUT.toNanos() + TimeUnit.SECONDS.toNanos(2));
				server.restart();
				acquired(client.tryAcquire("k", owner(), Duration.ofSeconds(10)));
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void whileRedisIsDownTheErrorOfEachCallNamesTheServerAndTheTimeoutButNoCredentials() {
		try (RedisServer server = RedisServer.start()) {
			server.command("ACL", "SETUSER", "lock-user-4f1", "on", ">pw-9c2e7", "~*", "&*", "+@all");
			LettuceConnectionFactory factory = RedisConnections.connectionFactory(server, "lock-user-4f1", "pw-9c2e7");
			try {
				RedisLockClient client = new RedisLockClient(factory);
				acquired(client.tryAcquire("k", owner(), Duration.ofSeconds(10)));
				server.stop();
				for (int call = 0; call < 2; call++) {
					assertThatExceptionOfType(LockBackendException.class)
						.isThrownBy(() -> client.tryAcquire("k", owner(), Duration.ofSeconds(10)))
						.withMessageStartingWith("Redis failed to acquire lock 'k': ")
						.withMessageContaining("Redis at 127.0.0.1:" + server.port())
						.withMessageContaining("command timeout 1s")
						.withMessageNotContaining("pw-9c2e7")
						.withMessageNotContaining("lock-user-4f1");
				}
				assertThat(client.asyncCalls().orElseThrow().tryAcquire("k", owner(), Duration.ofSeconds(10)))
					.failsWithin(Duration.ofSeconds(10))
					.withThrowableThat()
					.havingCause()
					.isInstanceOf(LockBackendException.class)
					.withMessageStartingWith("Redis failed to acquire lock 'k': ")
					.withMessageContaining("Redis at 127.0.0.1:" + server.port())
					.withMessageContaining("command timeout 1s")
					.withMessageNotContaining("pw-9c2e7")
					.withMessageNotContaining("lock-user-4f1");
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void locksWorkAgainAfterTheConnectionFactoryWasStoppedAndStarted() {
		// The scripts run on a connection of the factory's client: a restarted factory
		// has a new client, and the closed connection of the old one must not be used.
		LettuceConnectionFactory factory = RedisConnections.connectionFactory(redis.endpoint());
		try {
			RedisLockClient client = new RedisLockClient(factory);
			String first = owner();
			acquired(client.tryAcquire("restart:a", first, Duration.ofSeconds(10)));
			factory.stop();
			factory.start();
			String second = owner();
			acquired(client.tryAcquire("restart:b", second, Duration.ofSeconds(10)));
			assertThat(client.release("restart:a", first)).isTrue();
			assertThat(client.release("restart:b", second)).isTrue();
			assertThat((Long) redis.endpoint().command("EXISTS", "restart:a", "restart:b")).isZero();
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void fencingTokensIncreaseAfterARestartWithoutPersistence() {
		try (RedisServer server = RedisServer.start()) {
			LettuceConnectionFactory factory = RedisConnections.connectionFactory(server);
			try {
				RedisLockClient client = new RedisLockClient(factory);
				long before = acquired(client.tryAcquire("k", owner(), Duration.ofSeconds(10)));
				server.restart();
				assertThat(server.command("EXISTS", "k", RedisLockKeys.of("k").fence())).isEqualTo(0L);
				long after = acquired(client.tryAcquire("k", owner(), Duration.ofSeconds(10)));
				assertThat(after).isGreaterThan(before);
			}
			finally {
				factory.destroy();
			}
		}
	}

	private static String owner() {
		return UUID.randomUUID().toString();
	}

	private static long acquired(AcquireResult result) {
		assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
		return ((AcquireResult.Acquired) result).fencingToken();
	}

}
