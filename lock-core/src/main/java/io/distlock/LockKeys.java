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

package io.distlock;

import java.nio.charset.StandardCharsets;

/**
 * The rule for lock keys. Any non-blank string up to {@link #MAX_KEY_BYTES} without
 * control characters is a valid key: unicode, spaces, braces, colons and glob characters
 * included, since every key is passed to Redis as a script argument and never
 * interpreted. Control characters are reserved: the Redis store separates the parts of
 * the names it derives from a key with one, which keeps those names from colliding with
 * any lock key.
 */
public final class LockKeys {

	/**
	 * The longest key, in bytes of UTF-8: a Redis key can be much longer, but a lock key
	 * travels in every call that takes, renews or releases the lock.
	 */
	public static final int MAX_KEY_BYTES = 1024;

	private LockKeys() {
	}

	/**
	 * Check that the given string is a valid lock key.
	 * @param key the key, without the key prefix
	 * @throws IllegalArgumentException if the key is null, blank, longer than
	 * {@link #MAX_KEY_BYTES} or holds a control character, with a message that says which
	 */
	public static void validate(String key) {
		if (key == null) {
			throw new IllegalArgumentException("'key' must not be null");
		}
		if (key.isBlank()) {
			throw new IllegalArgumentException("'key' must not be blank");
		}
		// Checked on the character count first, so an absurdly long key is not encoded.
		if (key.length() > MAX_KEY_BYTES || key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
			throw new IllegalArgumentException("'key' must be at most " + MAX_KEY_BYTES + " bytes in UTF-8 but was "
					+ key.getBytes(StandardCharsets.UTF_8).length + " bytes (starting '" + key.substring(0, 32)
					+ "...')");
		}
		requireNoControlCharacter("key", key);
	}

	private static void requireNoControlCharacter(String name, String value) {
		for (int i = 0; i < value.length(); i++) {
			if (Character.isISOControl(value.charAt(i))) {
				throw new IllegalArgumentException(
						"'" + name + "' must not contain control characters but was '" + escape(value) + "'");
			}
		}
	}

	private static String escape(String value) {
		StringBuilder escaped = new StringBuilder(value.length() + 8);
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (Character.isISOControl(c)) {
				escaped.append(String.format("\\u%04x", (int) c));
			}
			else {
				escaped.append(c);
			}
		}
		return escaped.toString();
	}

}
