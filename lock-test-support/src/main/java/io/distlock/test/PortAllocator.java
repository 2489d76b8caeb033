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

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Hands out free loopback ports and keeps each one reserved until its server is closed,
 * so a server that is down for a restart does not lose its port to a sibling.
 */
final class PortAllocator {

	// Below the usual ephemeral ranges (Linux 32768+, macOS 49152+), so the outgoing
	// connections of clients never take the port of a server that is down for a restart.
	private static final int LOWEST = 15000;

	private static final int HIGHEST = 30000;

	private static final int ATTEMPTS = 500;

	private static final Set<Integer> reserved = ConcurrentHashMap.newKeySet();

	private PortAllocator() {
	}

	static int allocate() {
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			int port = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST);
			if (!reserved.contains(port) && isFree(port) && reserved.add(port)) {
				return port;
			}
		}
		throw new IllegalStateException("Found no free port on " + RedisServer.HOST + " between " + LOWEST + " and "
				+ HIGHEST + " in " + ATTEMPTS + " attempts");
	}

	static void release(int port) {
		reserved.remove(port);
	}

	private static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket()) {
			socket.bind(new InetSocketAddress(InetAddress.getByName(RedisServer.HOST), port), 1);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
