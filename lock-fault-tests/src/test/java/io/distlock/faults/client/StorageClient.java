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

package io.distlock.faults.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.distlock.test.RespConnection;
import org.jspecify.annotations.Nullable;

/**
 * A connection to the fenced storage of the fault scenarios: a Redis server that is never
 * faulted, running {@code storage.lua} for every operation so that each one is atomic and
 * numbered in one global order. Not thread-safe: one per thread.
 */
public final class StorageClient implements AutoCloseable {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final String SCRIPT = script();

	private final RespConnection connection;

	private final String sha;

	private StorageClient(RespConnection connection) {
		this.connection = connection;
		this.sha = (String) connection.command("SCRIPT", "LOAD", SCRIPT);
	}

	/**
	 * Connect to the storage.
	 * @param port the storage server's port on 127.0.0.1
	 * @return the connection, to be closed by the caller
	 */
	public static StorageClient connect(int port) {
		return new StorageClient(RespConnection.open("127.0.0.1", port, null, TIMEOUT));
	}

	/**
	 * Run one storage operation.
	 * @param op the operation: enter, exit, read, write, plain-read or plain-write
	 * @param key the lock key the data belongs to
	 * @param holder the acquisition id
	 * @param token the fencing token
	 * @param expected for writes, the value read before
	 * @param written for writes, the value to write
	 * @return the result
	 */
	public Result op(String op, String key, String holder, long token, long expected, long written) {
		return result(this.connection.command("EVALSHA", this.sha, "0", op, key, holder, Long.toString(token),
				Long.toString(expected), Long.toString(written)));
	}

	/**
	 * Run one storage operation that writes nothing.
	 * @param op the operation: enter, exit, read or plain-read
	 * @param key the lock key the data belongs to
	 * @param holder the acquisition id
	 * @param token the fencing token
	 * @return the result
	 */
	public Result op(String op, String key, String holder, long token) {
		return result(this.connection.command("EVALSHA", this.sha, "0", op, key, holder, Long.toString(token)));
	}

	/**
	 * Record a mark of the test (a kill, a pause, a restart) in the global order.
	 * @param mark what happened
	 * @param subject to what: a client or server name, without spaces
	 * @return the result, with the mark's sequence number and time
	 */
	public Result mark(String mark, String subject) {
		return op(mark, "-", subject, 0);
	}

	/**
	 * Return the whole operation log.
	 * @return its lines, in order
	 */
	public List<String> log() {
		return strings(this.connection.command("LRANGE", "log", "0", "-1"));
	}

	/**
	 * Return the holders in their critical section on a key, as the storage last saw
	 * them.
	 * @param key the lock key
	 * @return holder id to fencing token
	 */
	public Map<String, String> inSection(String key) {
		List<String> flat = strings(this.connection.command("HGETALL", "insec:" + key));
		Map<String, String> holders = new LinkedHashMap<>();
		for (int i = 0; i + 1 < flat.size(); i += 2) {
			holders.put(flat.get(i), flat.get(i + 1));
		}
		return holders;
	}

	/**
	 * Delete everything in the storage.
	 */
	public void flush() {
		this.connection.command("FLUSHALL");
	}

	@Override
	public void close() {
		this.connection.close();
	}

	private static Result result(@Nullable Object reply) {
		List<?> values = (List<?>) reply;
		if (values == null || values.size() != 4) {
			throw new IllegalStateException("Unexpected storage reply: " + reply);
		}
		return new Result((Long) values.get(0), (Long) values.get(1), ((Long) values.get(2)) == 1L,
				(Long) values.get(3));
	}

	private static List<String> strings(@Nullable Object reply) {
		List<String> strings = new ArrayList<>();
		if (reply instanceof List<?> list) {
			list.forEach((item) -> strings.add(String.valueOf(item)));
		}
		return strings;
	}

	private static String script() {
		try (InputStream input = StorageClient.class.getResourceAsStream("storage.lua")) {
			if (input == null) {
				throw new IllegalStateException("storage.lua is missing from the class path");
			}
			return new String(input.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The result of a storage operation.
	 *
	 * @param seq its place in the global order
	 * @param micros the storage server's clock
	 * @param accepted whether a fenced operation was accepted (always true for the
	 * others)
	 * @param value the counter value before the operation
	 */
	public record Result(long seq, long micros, boolean accepted, long value) {

	}

}
