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

package io.distlock.engine;

import java.nio.ByteBuffer;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.UUID;

/**
 * Makes unguessable owner tokens, 122 random bits in the form of a random {@link UUID},
 * without reading a file on the calling thread.
 *
 * <p>
 * {@link UUID#randomUUID()} reads {@code /dev/urandom} now and then, which is blocking
 * I/O on an event-loop thread. This generator is a DRBG seeded once, when it is created,
 * from the system's entropy; it then makes tokens from memory alone.
 */
final class OwnerTokens {

	private final SecureRandom random;

	OwnerTokens() {
		this.random = drbg();
		// Seeds it now, on the creating thread, rather than at the first acquisition.
		this.random.nextBytes(new byte[16]);
	}

	String next() {
		byte[] bytes = new byte[16];
		this.random.nextBytes(bytes);
		// Version 4 and the IETF variant, as UUID.randomUUID() sets them.
		bytes[6] = (byte) ((bytes[6] & 0x0f) | 0x40);
		bytes[8] = (byte) ((bytes[8] & 0x3f) | 0x80);
		ByteBuffer buffer = ByteBuffer.wrap(bytes);
		return new UUID(buffer.getLong(), buffer.getLong()).toString();
	}

	private static SecureRandom drbg() {
		try {
			return SecureRandom.getInstance("DRBG");
		}
		catch (NoSuchAlgorithmException ex) {
			return new SecureRandom();
		}
	}

}
