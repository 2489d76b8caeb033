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
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * One Lua script of the lock store, with its SHA-1 worked out once, that runs itself on a
 * connection of the template: {@code EVALSHA}, and {@code EVAL} when Redis does not know
 * the script yet.
 *
 * <p>
 * Why not {@link StringRedisTemplate#execute(RedisScript, List, Object...)}: it wraps the
 * connection in a JDK proxy on every call, and serializes through the template's
 * serializers, which cost about 3 KB and a reflective call per lock operation; and Spring
 * Data's own script computes its SHA-1 under a lock, which a virtual or event-loop thread
 * should not take. The template still hands out and closes the connection, so Lettuce's
 * shared connection, Jedis' pool, Sentinel and Cluster work as before.
 *
 * @param <T> the reply type: {@link Long} or {@link List}
 */
final class LockScript<T> implements RedisScript<T> {

	private final String text;

	private final String sha1;

	private final byte[] textBytes;

	private final byte[] sha1Bytes;

	private final Class<T> resultType;

	private final ReturnType returnType;

	LockScript(String text, Class<T> resultType) {
		this.text = text;
		this.textBytes = text.getBytes(StandardCharsets.UTF_8);
		this.sha1 = sha1Hex(this.textBytes);
		this.sha1Bytes = this.sha1.getBytes(StandardCharsets.US_ASCII);
		this.resultType = resultType;
		this.returnType = ReturnType.fromJavaType(resultType);
	}

	@Override
	public String getSha1() {
		return this.sha1;
	}

	/**
	 * Return the script's text as UTF-8, for an {@code EVAL} or {@code SCRIPT LOAD} of
	 * its own.
	 */
	byte[] textBytes() {
		return this.textBytes;
	}

	@Override
	public Class<T> getResultType() {
		return this.resultType;
	}

	@Override
	public String getScriptAsString() {
		return this.text;
	}

	/**
	 * Run the script on a connection of the template, without the template's proxy.
	 * @param redis the template handing out the connection
	 * @param keys the script's keys
	 * @param args the script's arguments
	 * @return the reply: integers as {@link Long}, bulk strings as {@link String}
	 */
	// RedisCallback may answer null (a nil reply); NullAway, outside JSpecify mode, reads
	// its type variable as non-null.
	@SuppressWarnings("NullAway")
	@Nullable T run(StringRedisTemplate redis, List<String> keys, String... args) {
		byte[][] keysAndArgs = keysAndArgs(keys, args);
		// exposeConnection: the callback gets the connection itself, not a proxy of it.
		return redis.execute((RedisCallback<T>) (connection) -> runOn(connection, keys.size(), keysAndArgs), true);
	}

	/**
	 * Run the script on the given connection.
	 * @param connection the connection
	 * @param keyCount how many of the values are keys
	 * @param keysAndArgs the keys, then the arguments
	 * @return the reply: integers as {@link Long}, bulk strings as {@link String}
	 */
	@SuppressWarnings("unchecked")
	@Nullable T runOn(RedisConnection connection, int keyCount, byte[][] keysAndArgs) {
		Object reply;
		try {
			reply = connection.scriptingCommands().evalSha(this.sha1Bytes, this.returnType, keyCount, keysAndArgs);
		}
		catch (DataAccessException ex) {
			if (!RedisCalls.isRedisError(ex, "NOSCRIPT")) {
				throw ex;
			}
			// A primary that just took over, restarted or was flushed of its scripts.
			reply = connection.scriptingCommands().eval(this.textBytes, this.returnType, keyCount, keysAndArgs);
		}
		return (T) decoded(reply);
	}

	/**
	 * Encode the keys and arguments of a script call.
	 */
	static byte[][] keysAndArgs(List<String> keys, String[] args) {
		byte[][] keysAndArgs = new byte[keys.size() + args.length][];
		for (int i = 0; i < keys.size(); i++) {
			keysAndArgs[i] = RedisCalls.bytes(keys.get(i));
		}
		for (int i = 0; i < args.length; i++) {
			keysAndArgs[keys.size() + i] = RedisCalls.bytes(args[i]);
		}
		return keysAndArgs;
	}

	/**
	 * Turn the bulk strings of a reply into strings, as the template's string serializer
	 * did: the drivers answer them as bytes.
	 */
	static @Nullable Object decoded(@Nullable Object reply) {
		if (reply instanceof byte[] bytes) {
			return new String(bytes, StandardCharsets.UTF_8);
		}
		if (reply instanceof List<?> values) {
			List<@Nullable Object> decoded = new ArrayList<>(values.size());
			for (Object value : values) {
				decoded.add(decoded(value));
			}
			return decoded;
		}
		return reply;
	}

	private static String sha1Hex(byte[] text) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-1 is not available", ex);
		}
	}

}
