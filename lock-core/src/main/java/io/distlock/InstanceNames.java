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

import java.io.IOException;
import java.net.InetAddress;

/**
 * The default name of this instance, the host name and the process id, and the escaping
 * of a setting refused for its control characters.
 */
final class InstanceNames {

	private InstanceNames() {
	}

	static String defaultName() {
		return DefaultInstanceName.NAME;
	}

	// Once a JVM: the host name may take a lookup.
	private static final class DefaultInstanceName {

		private static final String NAME = hostAndPid();

	}

	private static String hostAndPid() {
		String host = System.getenv("HOSTNAME");
		if (host == null || host.isBlank()) {
			try {
				host = InetAddress.getLocalHost().getHostName();
			}
			catch (IOException | RuntimeException ex) {
				host = "localhost";
			}
		}
		String name = host + ":" + ProcessHandle.current().pid();
		return (name.length() <= LockSettings.MAX_INSTANCE_NAME_LENGTH) ? name
				: name.substring(name.length() - LockSettings.MAX_INSTANCE_NAME_LENGTH);
	}

	static String escape(String value) {
		StringBuilder escaped = new StringBuilder(value.length() + 8);
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			escaped.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
		}
		return escaped.toString();
	}

}
