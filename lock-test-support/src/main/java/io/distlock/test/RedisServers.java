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

import java.util.ArrayList;
import java.util.List;

/**
 * A group of independent {@link RedisServer} processes, such as the five masters of a
 * Redlock test, closed together.
 */
public final class RedisServers implements AutoCloseable {

	private final List<RedisServer> servers;

	private RedisServers(List<RedisServer> servers) {
		this.servers = List.copyOf(servers);
	}

	/**
	 * Start the given number of servers, each on its own free port. If one fails to
	 * start, those already started are closed.
	 * @param count how many servers to start
	 * @param extraArgs further {@code redis-server} arguments given to every server
	 * @return the running servers, to be closed by the caller
	 */
	public static RedisServers start(int count, String... extraArgs) {
		if (count < 1) {
			throw new IllegalArgumentException("count must be at least 1 but was " + count);
		}
		List<RedisServer> started = new ArrayList<>(count);
		try {
			for (int i = 0; i < count; i++) {
				started.add(RedisServer.start(extraArgs));
			}
		}
		catch (RuntimeException ex) {
			Closeables.closeAfter(ex, started);
			throw ex;
		}
		return new RedisServers(started);
	}

	/**
	 * Return the server at the given index.
	 * @param index the zero-based index
	 * @return the server
	 */
	public RedisServer get(int index) {
		return this.servers.get(index);
	}

	/**
	 * Return all servers, in start order.
	 * @return an unmodifiable list of the servers
	 */
	public List<RedisServer> list() {
		return this.servers;
	}

	/**
	 * Return the URIs of all servers, in start order.
	 * @return the URIs, such as {@code redis://127.0.0.1:21345}
	 */
	public List<String> uris() {
		return this.servers.stream().map(RedisServer::uri).toList();
	}

	/**
	 * Return how many servers there are.
	 * @return the number of servers
	 */
	public int size() {
		return this.servers.size();
	}

	/**
	 * Close every server, also when closing one of them fails; the first failure is
	 * thrown afterwards with the others suppressed.
	 */
	@Override
	public void close() {
		Closeables.closeAll(this.servers);
	}

}
