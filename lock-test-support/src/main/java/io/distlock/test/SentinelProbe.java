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

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Reads what the sentinels of a {@link RedisSentinelGroup} and its data servers say:
 * which primary they name, whether they have settled on it, and a description of it all
 * for failure messages.
 */
final class SentinelProbe {

	private final Object group;

	private final String masterName;

	private final List<RedisServer> servers;

	private final List<RedisServer> sentinels;

	SentinelProbe(Object group, String masterName, List<RedisServer> servers, List<RedisServer> sentinels) {
		this.group = group;
		this.masterName = masterName;
		this.servers = servers;
		this.sentinels = sentinels;
	}

	// The server that every sentinel names instead of the old primary, if any.
	@Nullable RedisServer promoted(RedisServer old) {
		Integer port = null;
		for (RedisServer sentinel : this.sentinels) {
			int named = masterPort(sentinel);
			if (named == old.port() || (port != null && named != port)) {
				return null;
			}
			port = named;
		}
		for (RedisServer server : this.servers) {
			if (port != null && server.port() == port) {
				return server;
			}
		}
		return null;
	}

	// The running server that every sentinel names as primary and that is one, if any.
	@Nullable RedisServer agreedPrimary() {
		Integer port = null;
		for (RedisServer sentinel : this.sentinels) {
			int named = masterPort(sentinel);
			if (port != null && named != port) {
				return null;
			}
			port = named;
		}
		for (RedisServer server : this.servers) {
			if (port != null && server.port() == port && server.isRunning() && !server.isPaused()
					&& "master".equals(Polling.field(server.info("replication"), "role"))) {
				return server;
			}
		}
		return null;
	}

	// Every sentinel names the primary and sees every running replica and the other
	// sentinels as healthy; the primary is one and every running replica follows it.
	void awaitSettled(RedisServer current, List<RedisServer> replicas, Duration timeout) {
		List<RedisServer> running = replicas.stream().filter(RedisServer::isRunning).toList();
		Polling.await(timeout, "the sentinels to settle on primary " + current, () -> {
			if (!"master".equals(Polling.field(current.info("replication"), "role"))) {
				return false;
			}
			for (RedisServer replica : running) {
				String info = replica.info("replication");
				if (!Integer.toString(current.port()).equals(Polling.field(info, "master_port"))
						|| !"up".equals(Polling.field(info, "master_link_status"))) {
					return false;
				}
			}
			for (RedisServer sentinel : this.sentinels) {
				if (masterPort(sentinel) != current.port() || reachable(sentinel, "REPLICAS") < running.size()
						|| reachable(sentinel, "SENTINELS") < this.sentinels.size() - 1) {
					return false;
				}
			}
			return true;
		}, this::describe);
	}

	private int masterPort(RedisServer sentinel) {
		Object address = sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", this.masterName);
		if (address instanceof List<?> hostAndPort && hostAndPort.size() == 2) {
			return Integer.parseInt(String.valueOf(hostAndPort.get(1)));
		}
		return -1;
	}

	// How many replicas (or sentinels) the sentinel lists as reachable. Flags such as
	// master_down (which a sentinel keeps after it voted a primary down) do not matter,
	// nor does what a replica last told the sentinel about its link: it asks only every
	// 10 seconds, and the servers themselves are checked instead.
	private int reachable(RedisServer sentinel, String what) {
		int reachable = 0;
		for (Map<String, String> instance : instances(sentinel, what)) {
			List<String> flags = List.of(instance.getOrDefault("flags", "").split(","));
			if (!flags.contains("s_down") && !flags.contains("o_down") && !flags.contains("disconnected")) {
				reachable++;
			}
		}
		return reachable;
	}

	private List<Map<String, String>> instances(RedisServer sentinel, String what) {
		Object reply = sentinel.command("SENTINEL", what, this.masterName);
		List<Map<String, String>> instances = new ArrayList<>();
		if (reply instanceof List<?> list) {
			for (Object element : list) {
				if (element instanceof List<?> fields) {
					Map<String, String> instance = new HashMap<>();
					for (int i = 0; i + 1 < fields.size(); i += 2) {
						instance.put(String.valueOf(fields.get(i)), String.valueOf(fields.get(i + 1)));
					}
					instances.add(instance);
				}
			}
		}
		return instances;
	}

	String describe() {
		StringBuilder state = new StringBuilder("state of ").append(this.group).append(':');
		for (RedisServer sentinel : this.sentinels) {
			state.append("\nsentinel ").append(sentinel.port()).append(": ");
			try {
				state.append("master ")
					.append(sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", this.masterName))
					.append(", replicas ")
					.append(summary(instances(sentinel, "REPLICAS")))
					.append(", sentinels ")
					.append(summary(instances(sentinel, "SENTINELS")));
			}
			catch (RuntimeException ex) {
				state.append(ex);
			}
		}
		for (RedisServer server : this.servers) {
			state.append("\nserver ").append(server.port()).append(": ");
			if (!server.isRunning()) {
				state.append("not running");
				continue;
			}
			try {
				String info = server.info("replication");
				state.append("role ")
					.append(Polling.field(info, "role"))
					.append(", master_port ")
					.append(Polling.field(info, "master_port"))
					.append(", master_link_status ")
					.append(Polling.field(info, "master_link_status"))
					.append(", connected_slaves ")
					.append(Polling.field(info, "connected_slaves"));
			}
			catch (RuntimeException ex) {
				state.append(ex);
			}
		}
		return state.toString();
	}

	private static List<String> summary(List<Map<String, String>> instances) {
		return instances.stream()
			.map((instance) -> instance.get("port") + "[" + instance.get("flags") + ", link "
					+ instance.getOrDefault("master-link-status", "-") + " to "
					+ instance.getOrDefault("master-port", "-") + "]")
			.toList();
	}

}
