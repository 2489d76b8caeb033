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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.jspecify.annotations.Nullable;

import io.distlock.store.AcquireResult;
import io.distlock.store.AsyncFencingLockCalls;

import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The {@link AsyncFencingLockCalls} of a {@link RedisLockClient} on one standalone Redis
 * (a Redlock node), over Lettuce's asynchronous API: each call is written to the
 * connection from the calling thread, and Lettuce's event loop completes its stage.
 *
 * <p>
 * It runs on a connection of its own, opened from the connection factory's Lettuce client
 * (so with its URL, credentials, TLS and timeouts), and loads its scripts on connect; a
 * script Redis does not know (a restart) is sent again with {@code EVAL}. The connection
 * is opened on a thread of its own as soon as the calls are created, so that a node that
 * cannot be reached does not hold the caller for the connect timeout; calls made while it
 * opens are sent, in order, once it is open. After a failed connect, calls fail at once
 * while the next attempt runs in the background. Once open, Lettuce reconnects the
 * connection itself. The factory's shutdown closes it with its client.
 */
final class AsyncLockCalls implements AsyncFencingLockCalls {

	private static final SimpleAsyncTaskExecutor CONNECTING = connecting();

	private final LockScriptCalls calls;

	private final LockAcquisitions acquisitions;

	private final RedisClient client;

	private final String server;

	// Completes with the connection once it is open and every command queued while it
	// opened was sent.
	private volatile CompletableFuture<RedisAsyncCommands<byte[], byte[]>> ready;

	private boolean reconnecting;

	private AsyncLockCalls(LockScriptCalls calls, LockAcquisitions acquisitions, RedisClient client, String server) {
		this.calls = calls;
		this.acquisitions = acquisitions;
		this.client = client;
		this.server = server;
		// Opened now, so that the first lock does not wait for it.
		this.ready = CompletableFuture.supplyAsync(this::connect, CONNECTING);
	}

	/**
	 * Return the asynchronous calls over the given factory, or {@code null} if it is no
	 * started Lettuce factory of one standalone Redis or Sentinel-served master.
	 */
	static @Nullable AsyncLockCalls of(LockScriptCalls calls, LockAcquisitions acquisitions,
			@Nullable RedisConnectionFactory factory) {
		if (factory instanceof LettuceConnectionFactory lettuce && !lettuce.isClusterAware()
				&& lettuce.getNativeClient() instanceof RedisClient client) {
			return new AsyncLockCalls(calls, acquisitions, client, RedisAddress.describeWithTimeout(lettuce));
		}
		return null;
	}

	@Override
	@SuppressWarnings("rawtypes")
	public CompletionStage<AcquireResult> tryAcquire(String key, String ownerToken, Duration ttl) {
		ScriptCall<List> call = this.calls.acquire(key, ownerToken, ttl, true);
		return run(key, "acquire", call,
				(reply) -> this.acquisitions.checkedFencing(key, RedisCalls.acquireResult((List<?>) reply)));
	}

	@Override
	public CompletionStage<Boolean> raiseFencingToken(String key, String ownerToken, long fencingToken) {
		ScriptCall<Long> call = this.calls.raiseFence(key, ownerToken, fencingToken);
		return run(key, "raise the fencing token of", call, (reply) -> Long.valueOf(1L).equals(reply));
	}

	@Override
	public CompletionStage<Boolean> release(String key, String ownerToken) {
		if (RedisLockKeys.resourceOfPermits(key) != null) {
			return CompletableFuture.failedFuture(
					new UnsupportedOperationException("Permits cannot be released asynchronously: '" + key + "'"));
		}
		ScriptCall<Long> call = this.calls.release(key, ownerToken);
		return run(key, "release", call, (reply) -> Long.valueOf(1L).equals(reply));
	}

	private <R> CompletableFuture<R> run(String key, String operation, ScriptCall<?> call,
			Function<@Nullable Object, R> result) {
		byte[][] keys = call.keys().stream().map(RedisCalls::bytes).toArray(byte[][]::new);
		byte[][] args = LockScript.keysAndArgs(List.of(), call.args());
		LockScript<?> script = call.script();
		ScriptOutputType type = List.class.equals(script.getResultType()) ? ScriptOutputType.MULTI
				: ScriptOutputType.INTEGER;
		return send((redis) -> redis.<Object>evalsha(script.getSha1(), type, keys, args)
			.toCompletableFuture()
			.exceptionallyCompose((ex) -> RedisCalls.isRedisError(ex, "NOSCRIPT")
					? redis.<Object>eval(script.textBytes(), type, keys, args).toCompletableFuture()
					: CompletableFuture.failedFuture(ex)))
			.handle((reply, ex) -> {
				if (ex != null) {
					Throwable cause = (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
					throw RedisCalls.failure(key, operation, cause, this.server);
				}
				return result.apply(LockScript.decoded(reply));
			});
	}

	/**
	 * Send a command: at once, from the calling thread, when the connection is open and
	 * every earlier command was sent; otherwise once the connection opens, after the
	 * commands before it. The order matters: a release sent before the acquire it undoes
	 * would leave the lock behind.
	 */
	private CompletableFuture<Object> send(
			Function<RedisAsyncCommands<byte[], byte[]>, CompletableFuture<Object>> command) {
		CompletableFuture<RedisAsyncCommands<byte[], byte[]>> ready = this.ready;
		if (ready.isDone() && !ready.isCompletedExceptionally()) {
			return command.apply(ready.join());
		}
		synchronized (this) {
			if (this.ready.isCompletedExceptionally()) {
				// The last attempt to connect failed: this call fails at once rather than
				// wait for the node, and the next attempt runs in the background.
				reconnect();
				return CompletableFuture.failedFuture(this.ready.handle((redis, ex) -> ex).join());
			}
			CompletableFuture<Object> reply = new CompletableFuture<>();
			this.ready = this.ready.thenApply((redis) -> {
				try {
					command.apply(redis).whenComplete((value, ex) -> {
						if (ex != null) {
							reply.completeExceptionally(ex);
						}
						else {
							reply.complete(value);
						}
					});
				}
				catch (RuntimeException ex) {
					// This command only: the connection stays usable for the next.
					reply.completeExceptionally(ex);
				}
				return redis;
			});
			this.ready.whenComplete((redis, ex) -> {
				if (ex != null) {
					reply.completeExceptionally(ex);
				}
			});
			return reply;
		}
	}

	private void reconnect() {
		if (!this.reconnecting) {
			this.reconnecting = true;
			CompletableFuture.supplyAsync(this::connect, CONNECTING).whenComplete((redis, ex) -> {
				synchronized (this) {
					if (redis != null) {
						this.ready = CompletableFuture.completedFuture(redis);
					}
					this.reconnecting = false;
				}
			});
		}
	}

	private RedisAsyncCommands<byte[], byte[]> connect() {
		StatefulRedisConnection<byte[], byte[]> connection = this.client.connect(ByteArrayCodec.INSTANCE);
		RedisAsyncCommands<byte[], byte[]> redis = connection.async();
		// Not waited for: a call that comes first falls back to EVAL.
		for (LockScript<?> script : List.of(LockScripts.ACQUIRE, LockScripts.RAISE_FENCE, LockScripts.RELEASE)) {
			redis.scriptLoad(script.textBytes());
		}
		return redis;
	}

	private static SimpleAsyncTaskExecutor connecting() {
		SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor("distlock-connect-");
		executor.setDaemon(true);
		return executor;
	}

}
