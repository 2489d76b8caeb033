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

import org.jspecify.annotations.Nullable;

/**
 * A Redis server that tests talk to: either a {@link RedisServer} process that the
 * harness controls, or an external server named by {@code DISTLOCK_REDIS_URL} that it can
 * only send commands to.
 * <p>
 * The fault methods ({@link #stop()}, {@link #kill()}, {@link #restart()},
 * {@link #pause()}, {@link #resume()}, {@link #debugSleep(Duration)}) throw
 * {@link UnsupportedOperationException} unless {@link #isControllable()}; tests that
 * inject faults should skip otherwise, for example with
 * {@code assumeThat(endpoint.isControllable()).isTrue()}.
 */
public interface RedisEndpoint extends AutoCloseable {

	/**
	 * Return a single server for tests: the external one when {@code DISTLOCK_REDIS_URL}
	 * (or system property {@code distlock.redis.url}) is set, else a newly started
	 * {@link RedisServer}.
	 * @return the endpoint, to be closed by the caller
	 */
	static RedisEndpoint singleNode() {
		String url = HarnessSetting.REDIS_URL.value();
		return (url != null) ? ExternalRedisEndpoint.parse(url) : RedisServer.start();
	}

	/**
	 * Return the host that the server listens on.
	 * @return the host
	 */
	String host();

	/**
	 * Return the port that the server listens on.
	 * @return the port
	 */
	int port();

	/**
	 * Return the server's URI without credentials, such as
	 * {@code redis://127.0.0.1:6379}, or {@code rediss://127.0.0.1:6379} over TLS.
	 * @return the URI
	 */
	default String uri() {
		return (isTls() ? "rediss://" : "redis://") + host() + ":" + port();
	}

	/**
	 * Return whether the server accepts only TLS connections, with a certificate signed
	 * by the {@link TestCertificates} CA.
	 * @return whether clients must use TLS
	 */
	default boolean isTls() {
		return false;
	}

	/**
	 * Return the password that clients must send with {@code AUTH}.
	 * @return the password, or {@code null} if the server needs none
	 */
	@Nullable String password();

	/**
	 * Return whether the harness can stop, kill, restart and pause this server.
	 * @return whether the fault methods are supported
	 */
	boolean isControllable();

	/**
	 * Open a new authenticated connection whose connect and reads are bounded by the
	 * given timeout.
	 * @param timeout the limit for connecting and for each read
	 * @return the connection, to be closed by the caller
	 */
	default RespConnection connect(Duration timeout) {
		return RespConnection.open(host(), port(), password(), timeout);
	}

	/**
	 * Send one command on a new connection and return the reply.
	 * @param args the command and its arguments
	 * @return the reply, typed as for {@link RespConnection#command(String...)}
	 */
	default @Nullable Object command(String... args) {
		try (RespConnection connection = connect(RespConnection.DEFAULT_TIMEOUT)) {
			return connection.command(args);
		}
	}

	/**
	 * Delete every key in every database of the server.
	 */
	default void flushAll() {
		command("FLUSHALL");
	}

	/**
	 * Shut the server down gracefully and wait until it has exited; does nothing if it is
	 * not running.
	 */
	void stop();

	/**
	 * Kill the server with SIGKILL and wait until it has exited; does nothing if it is
	 * not running.
	 */
	void kill();

	/**
	 * Start the server again on the same port with the same arguments, stopping it first
	 * if it is running. Data is lost, as the server persists nothing.
	 */
	void restart();

	/**
	 * Freeze the server with SIGSTOP: connections stay open but nothing is answered until
	 * {@link #resume()}.
	 */
	void pause();

	/**
	 * Continue a server frozen by {@link #pause()} with SIGCONT.
	 */
	void resume();

	/**
	 * Block the server for the given time with {@code DEBUG SLEEP}, without blocking the
	 * caller. The command has been sent when this method returns.
	 * @param duration how long the server should sleep
	 */
	void debugSleep(Duration duration);

	/**
	 * Release the server: a process that the harness started is killed and its files
	 * deleted; an external server is left as it is.
	 */
	@Override
	void close();

}
