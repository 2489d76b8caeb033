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

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * An already running server named by a {@code redis://[:password@]host[:port]} URL, which
 * the harness can send commands to but not control.
 */
final class ExternalRedisEndpoint implements RedisEndpoint {

	private static final int DEFAULT_PORT = 6379;

	private final String host;

	private final int port;

	private final @Nullable String password;

	private ExternalRedisEndpoint(String host, int port, @Nullable String password) {
		this.host = host;
		this.port = port;
		this.password = password;
	}

	static ExternalRedisEndpoint parse(String url) {
		URI uri;
		try {
			uri = new URI(url);
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException("Not a Redis URL: " + url, ex);
		}
		if (!"redis".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
			throw new IllegalArgumentException("Expected a URL like redis://127.0.0.1:6379 but got " + url);
		}
		if (uri.getPath() != null && !uri.getPath().isEmpty() && !uri.getPath().equals("/")) {
			throw new IllegalArgumentException(
					"Database numbers are not supported (tests flush every database): " + url);
		}
		return new ExternalRedisEndpoint(uri.getHost(), (uri.getPort() != -1) ? uri.getPort() : DEFAULT_PORT,
				password(uri));
	}

	private static @Nullable String password(URI uri) {
		String userInfo = uri.getUserInfo();
		if (userInfo == null || userInfo.isEmpty()) {
			return null;
		}
		int colon = userInfo.indexOf(':');
		if (colon < 0) {
			return userInfo;
		}
		String user = userInfo.substring(0, colon);
		if (!user.isEmpty() && !user.equals("default")) {
			throw new IllegalArgumentException("ACL users are not supported, only a password: " + uri);
		}
		return userInfo.substring(colon + 1);
	}

	@Override
	public String host() {
		return this.host;
	}

	@Override
	public int port() {
		return this.port;
	}

	@Override
	public @Nullable String password() {
		return this.password;
	}

	@Override
	public boolean isControllable() {
		return false;
	}

	@Override
	public void stop() {
		throw unsupported("stop");
	}

	@Override
	public void kill() {
		throw unsupported("kill");
	}

	@Override
	public void restart() {
		throw unsupported("restart");
	}

	@Override
	public void pause() {
		throw unsupported("pause");
	}

	@Override
	public void resume() {
		throw unsupported("resume");
	}

	@Override
	public void debugSleep(Duration duration) {
		throw unsupported("debugSleep");
	}

	@Override
	public void close() {
		// Not ours to stop.
	}

	@Override
	public String toString() {
		return "external Redis at " + uri();
	}

	private UnsupportedOperationException unsupported(String operation) {
		return new UnsupportedOperationException(operation + " is not supported on " + this + " (from "
				+ HarnessSetting.REDIS_URL.describe() + "); skip the test unless isControllable()");
	}

}
