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
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Builds the command lines of the {@code redis-server} processes behind a
 * {@link RedisServer}: plain, TLS and sentinel, with the replication arguments of a
 * replica.
 */
final class ServerArguments {

	private ServerArguments() {
	}

	/**
	 * Return everything after the binary for the next launch of a server.
	 * @param replication {@code --replicaof} and {@code --masterauth}, or nothing
	 * @param extraArgs the caller's arguments; for a sentinel, its configuration text
	 * @param directory the server's working directory
	 */
	static List<String> launch(RedisServer.Kind kind, RedisBinary binary, int port, List<String> replication,
			List<String> extraArgs, Path directory) {
		List<String> args = new ArrayList<>(replication);
		args.addAll(extraArgs);
		return switch (kind) {
			case PLAIN -> server(binary, List.of("--port", Integer.toString(port)), args);
			case TLS -> server(binary, tlsListen(port), args);
			case SENTINEL -> List.of(sentinelConfig(directory, port, extraArgs.get(0)).toString(), "--sentinel");
		};
	}

	/**
	 * Return the arguments of a data server (not a sentinel).
	 * @param listen the arguments that choose the ports, such as {@code --port 6379}
	 * @param extraArgs further arguments, which come last and so win
	 */
	static List<String> server(RedisBinary binary, List<String> listen, List<String> extraArgs) {
		List<String> arguments = new ArrayList<>(List.of("--bind", RedisServer.HOST));
		arguments.addAll(listen);
		arguments.addAll(List.of("--save", "", "--appendonly", "no", "--daemonize", "no"));
		// A replica's full sync starts at once instead of after 5 seconds (diskless sync
		// is on by default since Redis 7).
		arguments.addAll(List.of("--repl-diskless-sync-delay", "0"));
		if (binary.majorVersion() >= 7) {
			// DEBUG (for debugSleep) is off by default since Redis 7.
			arguments.addAll(List.of("--enable-debug-command", "local"));
		}
		arguments.addAll(extraArgs);
		return arguments;
	}

	/**
	 * Return the arguments that make a server replicate the given primary.
	 */
	static List<String> replicationOf(RedisServer primary) {
		List<String> args = new ArrayList<>(List.of("--replicaof", RedisServer.HOST, Integer.toString(primary.port())));
		if (primary.password() != null) {
			args.addAll(List.of("--masterauth", primary.password()));
		}
		return List.copyOf(args);
	}

	/**
	 * Return the value of the last {@code --requirepass} among the arguments.
	 */
	static @Nullable String requirePass(List<String> args) {
		String password = null;
		for (int i = 0; i < args.size() - 1; i++) {
			if (args.get(i).equalsIgnoreCase("--requirepass")) {
				password = args.get(i + 1);
			}
		}
		return password;
	}

	private static List<String> tlsListen(int port) {
		return List.of("--port", "0", "--tls-port", Integer.toString(port), "--tls-cert-file",
				TestCertificates.serverCertificateFile().toString(), "--tls-key-file",
				TestCertificates.serverKeyFile().toString(), "--tls-ca-cert-file",
				TestCertificates.caCertificateFile().toString(), "--tls-auth-clients", "no",
				// As a replica's client certificate, should the primary ask for one.
				"--tls-client-cert-file", TestCertificates.clientCertificateFile().toString(), "--tls-client-key-file",
				TestCertificates.clientKeyFile().toString());
	}

	// Written on the first launch only: a sentinel rewrites its file with what it learns,
	// which a restart should keep.
	private static Path sentinelConfig(Path directory, int port, String config) {
		Path file = directory.resolve("sentinel.conf");
		if (!Files.exists(file)) {
			try {
				Files.writeString(file, "port " + port + "\n" + config);
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Could not write " + file, ex);
			}
		}
		return file;
	}

}
