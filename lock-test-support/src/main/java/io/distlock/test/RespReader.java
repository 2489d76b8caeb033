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

package io.distlock.test;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Reads RESP2 replies: simple strings and bulk strings as {@link String}, integers as
 * {@link Long}, arrays as {@link List}, and nil as {@code null}.
 */
final class RespReader {

	private final InputStream input;

	RespReader(InputStream input) {
		this.input = input;
	}

	@Nullable Object read() throws IOException {
		Object reply = readValue();
		if (reply instanceof RedisCommandException error) {
			throw error;
		}
		return reply;
	}

	// Errors inside an array (an EXEC reply, say) are kept as elements, so the rest of
	// the array is still read and the connection stays in step.
	private @Nullable Object readValue() throws IOException {
		int type = this.input.read();
		if (type == -1) {
			throw new EOFException("The server closed the connection");
		}
		String line = readLine();
		return switch (type) {
			case '+' -> line;
			case '-' -> new RedisCommandException(line);
			case ':' -> Long.parseLong(line);
			case '$' -> readBulk(Integer.parseInt(line));
			case '*' -> readArray(Integer.parseInt(line));
			default -> throw new IOException("Unexpected RESP reply type '" + (char) type + "' followed by " + line);
		};
	}

	private @Nullable String readBulk(int length) throws IOException {
		if (length < 0) {
			return null;
		}
		byte[] bytes = this.input.readNBytes(length);
		if (bytes.length < length) {
			throw new EOFException("The server closed the connection inside a bulk string");
		}
		readLine();
		return new String(bytes, StandardCharsets.UTF_8);
	}

	private @Nullable List<@Nullable Object> readArray(int size) throws IOException {
		if (size < 0) {
			return null;
		}
		List<@Nullable Object> elements = new ArrayList<>(size);
		for (int i = 0; i < size; i++) {
			elements.add(readValue());
		}
		return elements;
	}

	private String readLine() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int previous = -1;
		while (true) {
			int next = this.input.read();
			if (next == -1) {
				throw new EOFException("The server closed the connection inside a reply");
			}
			if (previous == '\r' && next == '\n') {
				byte[] bytes = line.toByteArray();
				return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
			}
			line.write(next);
			previous = next;
		}
	}

}
