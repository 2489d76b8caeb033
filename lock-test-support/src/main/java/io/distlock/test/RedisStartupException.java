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

/**
 * Thrown when a {@code redis-server} process does not start, with the server's own output
 * in the message.
 */
public class RedisStartupException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private static final int MAX_OUTPUT = 4000;

	private final boolean portInUse;

	RedisStartupException(String reason, String output) {
		super(reason + (output.isBlank() ? "; the server printed nothing" : "; server output:\n" + tail(output)));
		// glibc builds say "Address already in use", the musl-linked 7.0 binaries of
		// org.signal:embedded-redis "Address in use".
		this.portInUse = output.contains("Address already in use") || output.contains("Address in use");
	}

	RedisStartupException(String reason, Throwable cause) {
		super(reason, cause);
		this.portInUse = false;
	}

	/**
	 * Return whether the server could not bind its port because something else holds it.
	 * @return whether the port was in use
	 */
	public boolean isPortInUse() {
		return this.portInUse;
	}

	private static String tail(String output) {
		return (output.length() <= MAX_OUTPUT) ? output : "..." + output.substring(output.length() - MAX_OUTPUT);
	}

}
