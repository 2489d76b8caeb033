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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.distlock.LockBackendException;
import io.distlock.store.AcquireResult;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

/**
 * Runs a script and then {@code WAIT}s, on the same connection, until the given number of
 * replicas acknowledged its writes: {@code WAIT} counts the writes of the connection it
 * is sent on, so the two must never be split across connections.
 *
 * <p>
 * On one primary (standalone or Sentinel) both go over the connection the template hands
 * the callback: the shared connection, when Lettuce shares one, which {@code WAIT} then
 * holds for up to the timeout while replicas lag. On Redis Cluster they go over Lettuce's
 * connection to the primary that serves the keys' slot. Other drivers run the two
 * commands one after the other on one primary; Redis Cluster needs Lettuce.
 */
final class ReplicaAcknowledgement {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			ReplicaAcknowledgement.class.getClassLoader());

	private final int replicas;

	private final Duration timeout;

	/**
	 * Waits for no replica: runs the script alone, as on any primary.
	 */
	static final ReplicaAcknowledgement NONE = new ReplicaAcknowledgement(0, Duration.ZERO);

	private ReplicaAcknowledgement(int replicas, Duration timeout) {
		this.replicas = replicas;
		this.timeout = timeout;
	}

	/**
	 * Return the acknowledgement of the given number of replicas, {@link #NONE} for 0.
	 */
	static ReplicaAcknowledgement of(int replicas, Duration timeout) {
		Assert.isTrue(replicas >= 0, "'replicas' must not be negative");
		if (replicas == 0) {
			return NONE;
		}
		Assert.isTrue(timeout != null && !timeout.isNegative() && !timeout.isZero(), "'timeout' must be positive");
		return new ReplicaAcknowledgement(replicas, timeout);
	}

	int replicas() {
		return this.replicas;
	}

	Duration timeout() {
		return this.timeout;
	}

	/**
	 * Run the script, then wait for the replicas.
	 * @return the script's reply with the number of replicas that acknowledged it
	 */
	<T> Acknowledged<T> run(ScriptRunner redis, LockScript<T> script, List<String> keys, String... args) {
		return run(redis, new ScriptCall<>(script, keys, args), null);
	}

	/**
	 * Run the script, then wait for the replicas, then, when a check is given, run it on
	 * the server that answered the wait: whether what the script took is there. Lettuce
	 * sends again, on the connection it makes again, what it had sent on a connection
	 * that closed without an answer: a {@code WAIT} sent to one server may be answered by
	 * another (a promoted replica the clients were turned to), where the new connection
	 * has written nothing and any replica in sync acknowledges it at once.
	 * @return the script's reply, the number of replicas that acknowledged it, and the
	 * check's answer
	 */
	<T> Acknowledged<T> run(ScriptRunner redis, ScriptCall<T> call, @Nullable ScriptCall<Long> check) {
		if (this.replicas == 0) {
			T reply = call.run(redis);
			Assert.state(reply != null, "Redis gave no reply to the script");
			return new Acknowledged<>(reply, 0, true);
		}
		Acknowledged<T> result = redis.template().execute((RedisCallback<Acknowledged<T>>) (connection) -> {
			if (LETTUCE_PRESENT) {
				Acknowledged<T> acknowledged = LettuceAcknowledgement.run(connection, call, check, this.replicas,
						this.timeout);
				if (acknowledged != null) {
					return acknowledged;
				}
			}
			Assert.state(!(connection instanceof RedisClusterConnection),
					"Waiting for replicas on Redis Cluster needs Lettuce");
			return runOnConnection(connection, call, check);
		});
		Assert.state(result != null, "Redis gave no reply to the acknowledged script");
		return result;
	}

	/**
	 * Run an acquire script and, when fewer replicas acknowledged it in time than
	 * required, give back what it took with the given release. A script refused with
	 * {@code TRYAGAIN} (its slot migrating) took nothing, and is worth trying again.
	 * <p>
	 * An acquisition counts only when the server that answered the {@code WAIT} holds it:
	 * the given check runs there, right after the {@code WAIT}.
	 * @param operation what the call does, for error messages
	 * ({@code acquire a permit of})
	 * @param call the acquire script's call
	 * @param held tells whether the owner of the call holds what it took
	 * @param giveBack releases what the script took, owner-checked
	 * @return the store's answer, or {@link AcquireResult.NotConfirmed}
	 */
	@SuppressWarnings("rawtypes")
	AcquireResult acquire(ScriptRunner redis, String key, String operation, ScriptCall<List> call,
			ScriptCall<Long> held, Runnable giveBack) {
		try {
			Acknowledged<List> reply = RedisCalls.reply(RedisCalls.call(key, operation, () -> run(redis, call, held)),
					"acquire");
			AcquireResult result = RedisCalls.acquireResult(reply.reply());
			if (result instanceof AcquireResult.Acquired && isShort(reply)) {
				giveBack.run();
				return new AcquireResult.NotConfirmed(shortfall(reply.replicas()));
			}
			if (result instanceof AcquireResult.Acquired && !reply.heldWhereAcknowledged()) {
				giveBack.run();
				return new AcquireResult.NotConfirmed("acknowledged by a server that does not hold it (the "
						+ "connection was made again, to another server, between the grant and the wait for replicas)");
			}
			return result;
		}
		catch (LockBackendException ex) {
			if (RedisCalls.isRedisError(ex, "TRYAGAIN")) {
				// Refused before it ran: nothing was taken; worth trying again shortly.
				return new AcquireResult.NotConfirmed(SlotMigrationRetry.MIGRATING);
			}
			throw ex;
		}
	}

	/**
	 * Tell whether fewer replicas acknowledged than required.
	 */
	boolean isShort(Acknowledged<?> acknowledged) {
		return acknowledged.replicas() < this.replicas;
	}

	/**
	 * Describe a shortfall for an error message.
	 */
	String shortfall(long acknowledged) {
		return "acknowledged by " + acknowledged + " of " + this.replicas + " replica(s) within "
				+ this.timeout.toMillis() + "ms";
	}

	private <T> Acknowledged<T> runOnConnection(RedisConnection connection, ScriptCall<T> call,
			@Nullable ScriptCall<Long> check) {
		T reply = call.script().runOn(connection, call.keys().size(), LockScript.keysAndArgs(call.keys(), call.args()));
		Object acknowledged = connection.execute("WAIT", bytes(Integer.toString(this.replicas)),
				bytes(Long.toString(this.timeout.toMillis())));
		boolean held = check == null || Long.valueOf(1L)
			.equals(check.script()
				.runOn(connection, check.keys().size(), LockScript.keysAndArgs(check.keys(), check.args())));
		return new Acknowledged<>(reply, number(acknowledged), held);
	}

	static long number(@Nullable Object reply) {
		if (reply instanceof Number number) {
			return number.longValue();
		}
		if (reply instanceof byte[] text) {
			return Long.parseLong(new String(text, StandardCharsets.UTF_8));
		}
		throw new IllegalStateException("Redis answered WAIT with " + reply);
	}

	static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * A script's reply and how many replicas acknowledged its writes.
	 *
	 * @param <T> the reply type
	 * @param reply the script's reply
	 * @param replicas the number of replicas that acknowledged in time
	 * @param heldWhereAcknowledged whether the server that answered the wait holds what
	 * the script took, by the check run after it; {@code true} when there was none
	 */
	record Acknowledged<T>(@Nullable T reply, long replicas, boolean heldWhereAcknowledged) {

	}

}
