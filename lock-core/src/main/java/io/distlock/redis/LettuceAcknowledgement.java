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

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

import io.distlock.redis.ReplicaAcknowledgement.Acknowledged;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.Assert;

/**
 * Runs a script and {@code WAIT}, pipelined in one round trip, on Lettuce's connection to
 * the primary: the connection the template's callback uses, or on Redis Cluster the
 * connection to the primary that serves the script's keys. Loaded only when Lettuce is on
 * the class path.
 */
final class LettuceAcknowledgement {

	private LettuceAcknowledgement() {
	}

	@SuppressWarnings("unchecked")
	static <T> @Nullable Acknowledged<T> run(RedisConnection connection, ScriptCall<T> call,
			@Nullable ScriptCall<Long> check, int replicas, Duration timeout) {
		Object nativeConnection = connection.getNativeConnection();
		RedisClusterAsyncCommands<byte[], byte[]> commands;
		Duration commandTimeout;
		if (nativeConnection instanceof RedisAdvancedClusterAsyncCommands<?, ?> clusterCommands) {
			StatefulRedisClusterConnection<byte[], byte[]> cluster = ((RedisAdvancedClusterAsyncCommands<byte[], byte[]>) clusterCommands)
				.getStatefulConnection();
			int slot = SlotHash.getSlot(ReplicaAcknowledgement.bytes(call.keys().get(0)));
			RedisClusterNode owner = cluster.getPartitions().getPartitionBySlot(slot);
			Assert.state(owner != null, () -> "No Redis Cluster node serves slot " + slot);
			StatefulRedisConnection<byte[], byte[]> node = cluster.getConnection(owner.getNodeId());
			commands = node.async();
			commandTimeout = node.getTimeout();
		}
		else if (nativeConnection instanceof RedisAsyncCommands<?, ?> standalone) {
			commands = (RedisAsyncCommands<byte[], byte[]>) standalone;
			commandTimeout = ((RedisAsyncCommands<byte[], byte[]>) standalone).getStatefulConnection().getTimeout();
		}
		else {
			return null;
		}
		long waitMillis = commandTimeout.plus(timeout).toMillis();
		// One round trip: the script, the WAIT for its writes and the check, in order
		// on one connection, so that the check runs where the WAIT was answered.
		RedisFuture<Object> reply = evalsha(commands, call);
		RedisFuture<Long> acknowledged = commands.waitForReplication(replicas, timeout.toMillis());
		RedisFuture<Object> held = (check != null) ? evalsha(commands, check) : null;
		Object result;
		try {
			result = await(reply, waitMillis);
		}
		catch (RedisSystemException ex) {
			if (!RedisCalls.isRedisError(ex, "NOSCRIPT")) {
				throw ex;
			}
			// A primary that just took over does not know the script yet.
			reply = eval(commands, call);
			acknowledged = commands.waitForReplication(replicas, timeout.toMillis());
			held = (check != null) ? eval(commands, check) : null;
			result = await(reply, waitMillis);
		}
		long count = ReplicaAcknowledgement.number(await(acknowledged, waitMillis));
		boolean heldHere = (check == null) || (held != null && isHeld(commands, check, held, waitMillis));
		return new Acknowledged<>((T) result, count, heldHere);
	}

	private static boolean isHeld(RedisClusterAsyncCommands<byte[], byte[]> commands, ScriptCall<Long> check,
			RedisFuture<Object> held, long waitMillis) {
		Object answer;
		try {
			answer = await(held, waitMillis);
		}
		catch (RedisSystemException ex) {
			if (!RedisCalls.isRedisError(ex, "NOSCRIPT")) {
				throw ex;
			}
			// Sent after the WAIT was answered: it runs where that connection is now,
			// and a server that does not hold the grant answers no, as it should.
			answer = await(eval(commands, check), waitMillis);
		}
		return Long.valueOf(1L).equals(answer);
	}

	private static RedisFuture<Object> evalsha(RedisClusterAsyncCommands<byte[], byte[]> commands, ScriptCall<?> call) {
		return commands.evalsha(call.script().getSha1(), outputType(call), keys(call), args(call));
	}

	private static RedisFuture<Object> eval(RedisClusterAsyncCommands<byte[], byte[]> commands, ScriptCall<?> call) {
		return commands.eval(ReplicaAcknowledgement.bytes(call.script().getScriptAsString()), outputType(call),
				keys(call), args(call));
	}

	private static ScriptOutputType outputType(ScriptCall<?> call) {
		return (call.script().getResultType() == Long.class) ? ScriptOutputType.INTEGER : ScriptOutputType.MULTI;
	}

	private static byte[][] keys(ScriptCall<?> call) {
		return call.keys().stream().map(ReplicaAcknowledgement::bytes).toArray(byte[][]::new);
	}

	private static byte[][] args(ScriptCall<?> call) {
		return Arrays.stream(call.args()).map(ReplicaAcknowledgement::bytes).toArray(byte[][]::new);
	}

	private static <V> V await(RedisFuture<V> future, long millis) {
		try {
			return future.get(millis, TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			throw new RedisSystemException(String.valueOf(cause.getMessage()), cause);
		}
		catch (TimeoutException ex) {
			throw new RedisSystemException("Redis did not answer within " + millis + "ms", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RedisSystemException("Interrupted while waiting for Redis", ex);
		}
	}

}
